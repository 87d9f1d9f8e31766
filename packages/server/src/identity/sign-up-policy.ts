import type { SignupSettings } from '../config/app-config';
import { HttpError } from '../http/http-error';
import { MESSAGES } from '../routes/messages';

/** The domain of an address, lower case: what SIGNUP_ALLOWED_DOMAINS is compared with. */
export function emailDomainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/** The refusal for an address outside SIGNUP_ALLOWED_DOMAINS; it names the allowed domains. */
export function domainNotAllowedMessage(allowed: readonly string[]): string {
  const list = allowed.length === 1 ? allowed[0] : `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}`;
  return `Sign-up on this server is limited to e-mail addresses at ${list}.`;
}

/** Throws 403 unless an address may be used to sign up (or be invited) on this server. */
export function assertEmailDomainAllowed(settings: SignupSettings, email: string): void {
  const allowed = settings.allowedEmailDomains;
  if (allowed.length > 0 && !allowed.includes(emailDomainOf(email))) {
    throw new HttpError(403, domainNotAllowedMessage(allowed));
  }
}

/**
 * What sign-up checks before any costly work (Argon2id, database writes): closed refuses
 * everyone; invite refuses a request without a token (the token itself is checked against
 * the database next); the domain list refuses other addresses.
 */
export function assertSignUpAllowed(settings: SignupSettings, body: { email: string; invite?: string | undefined }): void {
  if (settings.mode === 'closed') throw new HttpError(403, MESSAGES.signupClosed);
  if (settings.mode === 'invite' && body.invite === undefined) throw new HttpError(403, MESSAGES.inviteRequired);
  assertEmailDomainAllowed(settings, body.email);
}
