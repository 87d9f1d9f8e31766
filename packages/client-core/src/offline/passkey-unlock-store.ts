import { z } from 'zod';
import type { AccountRef } from '../device-memory/account-ref';
import type { OfflineCopyStore } from './offline-copy';

/**
 * A passkey's unlock key as the server answered it at an online passkey unlock on this device:
 * the vault key wrapped under the passkey's PRF output, bound to the account id, the credential
 * id and the key epoch. Not secret without the authenticator, like the password-wrapped key the
 * copy holds without the password.
 */
export interface OfflinePasskeyUnlock {
  /** The WebAuthn credential id (base64url), as the authenticator answered it. */
  credentialId: string;
  /** The account id the server answered, used only when the authenticator gives no user handle. */
  userId: string;
  unlockKey: string;
  /** The relying party id the server's options named, for the offline ceremony. */
  rpId?: string | undefined;
}

/** How many passkeys' unlock keys a device keeps for its copy: a person has a handful. */
const KEPT_AT_MOST = 10;

const unlocksSchema = z
  .array(
    z.object({
      credentialId: z.string().min(1).max(1400),
      userId: z.string().min(1).max(200),
      unlockKey: z.string().min(1).max(2000),
      rpId: z.string().min(1).max(253).optional(),
    }),
  )
  .max(KEPT_AT_MOST);

/**
 * The unlock keys kept for `account` (none when the store keeps none, or what it holds is not
 * what this version wrote: a damaged record only takes the passkey way away, the password still
 * opens the copy).
 */
export async function readPasskeyUnlocks(store: OfflineCopyStore, account: AccountRef): Promise<OfflinePasskeyUnlock[]> {
  const stored = await store.passkeyUnlocks?.read(account);
  const parsed = unlocksSchema.safeParse(stored ?? []);
  return parsed.success ? parsed.data : [];
}

/**
 * The unlock keys to keep after `unlock` opened the vault online: `unlock` first (replacing an
 * older one of the same passkey), then the others the server still offered for this account
 * (`offered`, the credential ids of its unlock options), so a passkey removed from the account
 * stops opening this device's copy at the next passkey unlock here.
 */
export function keptPasskeyUnlocks(
  kept: readonly OfflinePasskeyUnlock[],
  unlock: OfflinePasskeyUnlock,
  offered: readonly string[],
): OfflinePasskeyUnlock[] {
  const others = kept.filter((old) => old.credentialId !== unlock.credentialId && offered.includes(old.credentialId));
  return [unlock, ...others].slice(0, KEPT_AT_MOST);
}
