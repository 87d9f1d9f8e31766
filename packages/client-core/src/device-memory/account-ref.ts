/**
 * How this device names an account in its anti-rollback memory.
 *
 * Security invariant: an AccountRef is made only from a name the PERSON gave on this device (typed
 * at sign-in or sign-up, chosen in a rename), never from a name the server answered. A server that
 * answers another spelling (a look-alike "а" for "a", other case, nothing at all) would otherwise
 * point the device at an empty memory, and every "this device saw newer" check would pass.
 *
 * It is a SHA-256 of the name after NFKC and lower-casing (the server folds names the same way to
 * keep them unique), so a look at the device's storage does not list whose accounts were used.
 */
export type AccountRef = string & { readonly __accountRef: unique symbol };

/** The form in which two names are the same account: NFKC, then lower case (as the server folds). */
export function foldAccountName(name: string): string {
  return name.normalize('NFKC').toLowerCase();
}

/** Whether two names are the same account's. A look-alike from another script is not. */
export function sameAccountName(a: string, b: string): boolean {
  return foldAccountName(a) === foldAccountName(b);
}

/** The ref of a name the person gave on this device. */
export async function accountRefOf(typedName: string): Promise<AccountRef> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(foldAccountName(typedName))));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('') as AccountRef;
}

const REF_PATTERN = /^[0-9a-f]{64}$/;

/** A ref read back from this device's own storage; null when it is not one. */
export function parseAccountRef(value: unknown): AccountRef | null {
  return typeof value === 'string' && REF_PATTERN.test(value) ? (value as AccountRef) : null;
}
