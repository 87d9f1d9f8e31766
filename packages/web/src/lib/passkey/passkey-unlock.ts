import { unwrapVaultKeyWithPasskey } from '@lockit/crypto';
import { getKeyMaterial } from '@/api/get-key-material';
import { getPasskeyUnlockOptions, unlockWithAssertion } from '@/api/passkey-unlock';
import { checkServerKeyEpoch, checkServerKeySettings } from '@/lib/account-key-policy';
import { deviceMemory } from '@/lib/device-memory';
import type { UnlockedVault } from '@/lib/keyring';
import { unlockedVaultFromKeyBytes } from '@/lib/unlocked-vault-from-key-bytes';
import { CANNOT_UNLOCK_TEXT, PasskeyUnlockError } from './passkey-sign-in';
import { getAssertion, userHandleOf } from './prf-ceremonies';

/** The authenticator gave no PRF output for the passkey: nothing was sent, nothing unlocked. */
export class PasskeyNoPrfError extends Error {
  override readonly name = 'PasskeyNoPrfError';
  constructor() {
    super(CANNOT_UNLOCK_TEXT['no-prf']);
  }
}

/**
 * Unlock with a passkey, for a live session whose vault this tab does not hold: unlock options
 * (the session's passkeys that hold an unlock key) -> get() with PRF -> the server checks the
 * assertion and answers that credential's unlock key -> key material, checked by the key policy
 * -> unwrap -> non-extractable keys.
 *
 * Security invariants:
 * - The unlock key is unwrapped under the PRF output, bound to the credential id the
 *   AUTHENTICATOR answered and the account id its user handle names (the server's word only
 *   when the authenticator gives no handle: the binding to this credential still holds, and
 *   only this browser ever made a wrap for it). A server that answers another passkey's or
 *   another account's unlock key fails the tag: PasskeyUnlockError, nothing unlocked.
 * - The unwrap binds the key epoch key-material names, which must be no lower than the highest this
 *   browser saw: an unlock key of a vault key a rotation replaced (kept and served again by the
 *   server) is refused with KeyEpochRolledBackError if the server names its old epoch, and fails
 *   the tag if it names the current one. Nothing is unlocked either way. A successful unwrap
 *   raises the remembered epoch.
 * - The key material must pass checkServerKeySettings (policy, device, no rollback of params or
 *   generation) and checkServerKeyEpoch before anything is unwrapped, as the other unlock paths require, against the
 *   memory of the account this browser's sign-in bound (never the server's name for it).
 * - The PRF output is wiped on every path; the key bytes inside unlockedVaultFromKeyBytes.
 *
 * Errors: PasskeyCeremonyError (cancelled, timed out, no WebAuthn), PasskeyNoPrfError,
 * PasskeyUnlockError, KdfParamsRejectedError, and the API client's errors.
 */
export async function unlockWithPasskey(username: string): Promise<UnlockedVault> {
  const account = await deviceMemory.requireSessionAccount();
  const challenge = await getPasskeyUnlockOptions();
  const assertion = await getAssertion(challenge.options);
  try {
    if (!assertion.prfOutput) throw new PasskeyNoPrfError();
    const answer = await unlockWithAssertion({ challengeId: challenge.challengeId, response: assertion.response });
    const material = await getKeyMaterial();
    const { kdf, keyGeneration } = await checkServerKeySettings(account, material);
    const keyEpoch = await checkServerKeyEpoch(account, material);
    const binding = {
      userId: userHandleOf(assertion.response) ?? answer.userId,
      credentialId: assertion.credentialId,
      keyEpoch,
    };
    let bytes: Uint8Array;
    try {
      bytes = await unwrapVaultKeyWithPasskey(answer.unlockKey, assertion.prfOutput, binding);
    } catch {
      throw new PasskeyUnlockError();
    }
    const vault = await unlockedVaultFromKeyBytes(bytes, {
      username,
      account,
      kdf,
      salt: material.salt,
      protectedKey: material.protectedKey,
      keyGeneration,
      keyEpoch,
    });
    await deviceMemory.rememberKeyEpoch(account, keyEpoch);
    return vault;
  } finally {
    assertion.prfOutput?.fill(0);
  }
}
