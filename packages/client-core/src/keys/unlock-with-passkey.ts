import type { AccountRef } from '../device-memory/account-ref';
import type { OfflineCopyStore } from '../offline/offline-copy';
import { keptPasskeyUnlocks, readPasskeyUnlocks } from '../offline/passkey-unlock-store';
import type { KeyPlatform } from './client-keys';
import { openWithPasskeyKey, PasskeyNoPrfError, userHandleOf, type PasskeyCeremony } from './passkey-keys';

export { PasskeyNoPrfError };

/**
 * Unlock with a passkey, for a live session whose vault this client does not hold: unlock
 * options (the session's passkeys that hold an unlock key) -> the ceremony with PRF -> the server
 * checks the assertion and answers that credential's unlock key -> openWithPasskeyKey.
 *
 * Security invariants: those of openWithPasskeyKey, for the account this device's sign-in bound
 * (UnknownSessionAccountError without one). The account id bound is the one the AUTHENTICATOR's
 * user handle names; the server's only when the authenticator gives none (the binding to this
 * credential still holds, and only this device ever made a wrap for it). The PRF output is wiped
 * on every path.
 *
 * With `copies` (the platform keeps an offline copy), the unlock key that opened is kept beside
 * the copy, with those of the other passkeys the server still offered, so the same passkey
 * opens the copy with the server down (offline-passkey-unlock.ts). Only after it opened: a key
 * that fails verification is never kept.
 *
 * Errors: the ceremony's own, PasskeyNoPrfError, PasskeyUnlockError, KdfParamsRejectedError, and
 * the API client's errors.
 */
export async function unlockWithPasskey<V>(
  platform: Pick<KeyPlatform<V>, 'api' | 'memory' | 'device' | 'open'>,
  username: string,
  ceremony: PasskeyCeremony,
  { copies }: { copies?: OfflineCopyStore | undefined } = {},
): Promise<V> {
  const account = await platform.memory.requireSessionAccount();
  const { data: challenge } = await platform.api.call('passkey-unlock-options', {});
  const assertion = await ceremony(challenge.options);
  try {
    if (!assertion.prfOutput) throw new PasskeyNoPrfError();
    const { data: answer } = await platform.api.call('passkey-unlock', {
      body: { challengeId: challenge.challengeId, response: assertion.response },
    });
    const vault = await openWithPasskeyKey(platform, {
      account,
      username,
      unlockKey: answer.unlockKey,
      prfOutput: assertion.prfOutput,
      userId: userHandleOf(assertion.response) ?? answer.userId,
      credentialId: assertion.credentialId,
    });
    if (copies) await keepForOfflineCopy(copies, account, challenge.options, { ...answer, credentialId: assertion.credentialId });
    return vault;
  } finally {
    assertion.prfOutput?.fill(0);
  }
}

/** Keeps the unlock key that just opened the vault, and drops those of passkeys no longer offered. */
async function keepForOfflineCopy(
  copies: OfflineCopyStore,
  account: AccountRef,
  options: Record<string, unknown>,
  answer: { userId: string; unlockKey: string; credentialId: string },
): Promise<void> {
  if (!copies.passkeyUnlocks) return;
  const allowed = Array.isArray(options['allowCredentials']) ? (options['allowCredentials'] as unknown[]) : [];
  const offered = allowed.flatMap((credential) => {
    const id = (credential as { id?: unknown } | null)?.id;
    return typeof id === 'string' ? [id] : [];
  });
  const rpId = typeof options['rpId'] === 'string' && options['rpId'] !== '' ? options['rpId'] : undefined;
  const kept = await readPasskeyUnlocks(copies, account);
  const unlock = {
    credentialId: answer.credentialId,
    userId: answer.userId,
    unlockKey: answer.unlockKey,
    ...(rpId ? { rpId } : {}),
  };
  await copies.passkeyUnlocks.write(account, keptPasskeyUnlocks(kept, unlock, offered));
}
