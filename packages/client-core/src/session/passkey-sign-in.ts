import { accountRefOf, type AccountRef } from '../device-memory/account-ref';
import type { DeviceMemory } from '../device-memory/device-memory';
import { AnsweredAccountMismatchError } from '../keys/account-answer';
import type { KeyPlatform } from '../keys/client-keys';
import { openWithPasskeyKey, PasskeyUnlockError, userHandleOf, type PasskeyCeremony } from '../keys/passkey-keys';

/** Why a passkey sign-in opened the session but not the vault. */
export type CannotUnlockReason = 'no-unlock-key' | 'no-prf';

export type PasskeySignInResult<V> =
  | { kind: 'unlocked'; message: string; vault: V }
  | { kind: 'signed-in'; message: string; username: string; reason: CannotUnlockReason };

/**
 * Passkey sign-in and unlock: options -> the platform's ceremony with PRF -> sign-in -> the
 * account as this device knows it -> the unlock key opened (openWithPasskeyKey).
 *
 * Security invariants: those of openWithPasskeyKey, and the account is found by the user handle
 * the AUTHENTICATOR gave, in this device's own record, never by the name the server answers; an
 * answer for another account than the handle's is refused. The PRF output is wiped on every path.
 *
 * Errors: the ceremony's own, ApiError, NetworkError, UnexpectedResponseError, and after the
 * session opened PasskeyUnlockError or KdfParamsRejectedError (the caller ends that session).
 */
export async function signInWithPasskey<V>(
  platform: Pick<KeyPlatform<V>, 'api' | 'memory' | 'device' | 'open'>,
  ceremony: PasskeyCeremony,
): Promise<PasskeySignInResult<V>> {
  const { data: challenge } = await platform.api.call('passkey-options', {});
  const assertion = await ceremony(challenge.options);
  try {
    const answer = await platform.api.call('passkey-sign-in', {
      body: { challengeId: challenge.challengeId, response: assertion.response },
    });
    const { username, userId, unlockKey } = answer.data;
    const account = await passkeyAccount(platform.memory, assertion.response, userId, username);
    if (unlockKey === null) return { kind: 'signed-in', message: answer.message, username, reason: 'no-unlock-key' };
    if (!assertion.prfOutput) return { kind: 'signed-in', message: answer.message, username, reason: 'no-prf' };
    const vault = await openWithPasskeyKey(platform, {
      account,
      username,
      unlockKey,
      prfOutput: assertion.prfOutput,
      userId,
      credentialId: assertion.credentialId,
    });
    return { kind: 'unlocked', message: answer.message, vault };
  } finally {
    assertion.prfOutput?.fill(0);
  }
}

/**
 * The account a passkey sign-in opened, as this device knows it, bound as the session's account.
 * Only a passkey this device has never seen takes the server's name, as a new device must.
 */
async function passkeyAccount(
  memory: DeviceMemory,
  response: Record<string, unknown>,
  answeredUserId: string,
  answeredName: string,
): Promise<AccountRef> {
  const handle = userHandleOf(response);
  // Ended like a key that failed verification: the session is not the passkey's account.
  if (handle !== undefined && handle !== answeredUserId) throw new PasskeyUnlockError(new AnsweredAccountMismatchError().message);
  const known = handle === undefined ? null : await memory.accountOfUserHandle(handle);
  const account = known ?? (await accountRefOf(answeredName));
  if (handle !== undefined && known === null) await memory.rememberUserHandle(handle, account);
  await memory.bindSession(account);
  return account;
}
