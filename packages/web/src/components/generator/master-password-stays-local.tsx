/**
 * Said where a master password is chosen (sign-up, change password): it is measured here and
 * nowhere else. It replaced an opt-in breach check, which sent 5 hex characters of the
 * password's SHA-1 to the range server: with the login verifier too, that server's operator
 * could drop almost every guess at the cost of a SHA-1 before paying for one Argon2id
 * (docs/decisions/0059).
 */
export const MASTER_PASSWORD_STAYS_LOCAL =
  'Your master password never leaves this browser, in any form: its strength is measured here, and it is not checked against lists of breached passwords, because that would send part of its hash.';

export function MasterPasswordStaysLocal() {
  return <p className="text-sm text-slate-400">{MASTER_PASSWORD_STAYS_LOCAL}</p>;
}
