import { accountRefOf, AnsweredAccountMismatchError } from '@lockit/client-core';
import { unwrapVaultKeyWithPasskey } from '@lockit/crypto';
import { getKeyMaterial } from '@/api/get-key-material';
import { getPasskeyOptions, signInWithAssertion } from '@/api/passkey-sign-in';
import { checkServerKeyEpoch, checkServerKeySettings } from '@/lib/account-key-policy';
import { deviceMemory } from '@/lib/device-memory';
import type { UnlockedVault } from '@/lib/keyring';
import { unlockedVaultFromKeyBytes } from '@/lib/unlocked-vault-from-key-bytes';
import { getAssertion, userHandleOf } from './prf-ceremonies';

/**
 * The passkey's unlock key did not verify: nothing is unlocked. At passkey sign-in the session it
 * just opened is ended too; on the Unlock screen the session stays and the password still works.
 */
export class PasskeyUnlockError extends Error {
  override readonly name = 'PasskeyUnlockError';
  constructor(message = "Lockit could not unlock your vault: the server's key data failed verification.") {
    super(message);
  }
}

/** Why a passkey sign-in opened the session but not the vault. */
export type CannotUnlockReason = 'no-unlock-key' | 'no-prf';

export type PasskeySignInResult =
  | { kind: 'unlocked'; message: string; vault: UnlockedVault }
  | { kind: 'signed-in'; message: string; username: string; reason: CannotUnlockReason };

/**
 * Passkey sign-in and unlock: options -> get() with PRF -> sign-in -> unwrap the unlock key ->
 * the account's key material, checked by the KDF policy as sign-in does.
 *
 * Security invariants:
 * - The unlock key is unwrapped under the PRF output with the account id of the answer and the
 *   credential id the AUTHENTICATOR returned, never the server's: a server that hands this
 *   session another account's or another passkey's unlock key fails the tag (PasskeyUnlockError).
 * - The PRF output and the vault key bytes are wiped once used; only a non-extractable
 *   CryptoKey and the reload seal (decision 0048) remain.
 * - The key material (params, salt, protectedKey) is kept for a later password change, whose
 *   unwrap under the current password verifies it; its params must pass the floor/ceiling
 *   policy and be no weaker than this browser used before, or nothing is unlocked; its key epoch
 *   must be no lower than this browser saw (an unlock key of a key a rotation replaced is refused)
 *   and is bound by the unwrap.
 *
 * Errors: PasskeyCeremonyError, ApiError, NetworkError, UnexpectedResponseError, and after the
 * session opened PasskeyUnlockError or KdfParamsRejectedError (the caller ends that session).
 */
export async function signInWithPasskey(): Promise<PasskeySignInResult> {
  const challenge = await getPasskeyOptions();
  const assertion = await getAssertion(challenge.options);
  try {
    const answer = await signInWithAssertion({ challengeId: challenge.challengeId, response: assertion.response });
    const { username, userId, unlockKey } = answer.data;
    const account = await passkeyAccount(assertion.response, userId, username);
    if (unlockKey === null) return { kind: 'signed-in', message: answer.message, username, reason: 'no-unlock-key' };
    if (!assertion.prfOutput) return { kind: 'signed-in', message: answer.message, username, reason: 'no-prf' };

    const material = await getKeyMaterial();
    const { kdf, keyGeneration } = await checkServerKeySettings(account, material);
    const keyEpoch = await checkServerKeyEpoch(account, material);

    let vault: UnlockedVault;
    try {
      const bytes = await unwrapVaultKeyWithPasskey(unlockKey, assertion.prfOutput, {
        userId,
        credentialId: assertion.credentialId,
        keyEpoch,
      });
      vault = await unlockedVaultFromKeyBytes(bytes, {
        username,
        account,
        kdf,
        salt: material.salt,
        protectedKey: material.protectedKey,
        keyGeneration,
        keyEpoch,
      });
    } catch {
      throw new PasskeyUnlockError();
    }
    await deviceMemory.rememberKeyEpoch(account, keyEpoch);
    return { kind: 'unlocked', message: answer.message, vault };
  } finally {
    assertion.prfOutput?.fill(0);
  }
}

/**
 * The account a passkey sign-in opened, as this browser knows it, bound as the session's account.
 *
 * Security invariants: the account is found by the user handle the AUTHENTICATOR gave, in this
 * browser's own record (made when a passkey was added here or first used here), never by the name
 * the server answers; an answer for another account than the handle's is refused. Only a passkey
 * this browser has never seen takes the server's name, as a new browser must.
 */
async function passkeyAccount(response: Record<string, unknown>, answeredUserId: string, answeredName: string) {
  const handle = userHandleOf(response);
  // Ended like a key that failed verification: the session is not the passkey's account.
  if (handle !== undefined && handle !== answeredUserId) throw new PasskeyUnlockError(new AnsweredAccountMismatchError().message);
  const known = handle === undefined ? null : await deviceMemory.accountOfUserHandle(handle);
  const account = known ?? (await accountRefOf(answeredName));
  if (handle !== undefined && known === null) await deviceMemory.rememberUserHandle(handle, account);
  await deviceMemory.bindSession(account);
  return account;
}

/** What the Unlock screen says when a passkey signed in but could not open the vault. */
export const CANNOT_UNLOCK_TEXT: Record<CannotUnlockReason, string> = {
  'no-unlock-key': 'This passkey signs you in but cannot unlock your vault: enter your master password.',
  'no-prf': 'Your authenticator did not give this passkey’s unlock secret: enter your master password.',
};

/** The router state a passkey sign-in that could not unlock hands to the vault's Unlock screen. */
export interface PasskeySignedInState {
  passkeyCannotUnlock: CannotUnlockReason;
}

/** The reason in a location's state, if a passkey sign-in put one there. */
export function cannotUnlockReasonOf(state: unknown): CannotUnlockReason | undefined {
  const reason = (state as Partial<PasskeySignedInState> | null | undefined)?.passkeyCannotUnlock;
  return reason === 'no-unlock-key' || reason === 'no-prf' ? reason : undefined;
}
