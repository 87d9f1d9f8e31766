import { KdfParamsRejectedError, unwrapVaultKey, type KdfParams } from '@lockit/crypto';
import type { AccountRef } from '../device-memory/account-ref';
import { AnsweredAccountMismatchError, checkAnsweredAccount } from './account-answer';
import type { KeyPlatform } from './client-keys';
import { checkServerKeyEpoch } from './key-settings-policy';

/** The server's key data did not verify: the session must be ended and nothing unlocked. */
export class VaultUnlockError extends Error {
  override readonly name = 'VaultUnlockError';
  constructor(message = "Lockit could not unlock your vault: the server's key data failed verification.") {
    super(message);
  }
}

/** What a sign-in checked before it sent anything: prelogin's params and salt, and the derived wrapKey. */
export interface CheckedSignInKeys {
  /** As the person typed it. */
  username: string;
  /** This device's ref of the typed name: where its memory of the account is kept. */
  account: AccountRef;
  kdf: KdfParams;
  salt: string;
  /** The key generation checked at prelogin (no lower than this device saw). */
  keyGeneration: number;
  /** AES-256-GCM, non-extractable, in memory only. */
  wrapKey: CryptoKey;
}

/**
 * Unwraps the vault key the server answered after a successful sign-in (password alone, or
 * password and a second factor) and opens the platform's vault with it.
 *
 * Security invariants: the unwrap uses only the params, salt and key generation checked at
 * prelogin (`keys`), never anything a later answer carries; the wrap's associated data binds
 * them, so a server that changed them fails here (VaultUnlockError). The key epoch the answer
 * names must be no lower than this device saw (a wrap of a key a rotation replaced is refused
 * before anything is unwrapped) and is bound by the unwrap. The params, generation and epoch
 * are remembered only after the key unwrapped under them. The answer must name the account the
 * person typed (a look-alike or another name is refused before anything is unwrapped); what
 * this device remembers is kept under the typed name's ref, and the session is bound to it for
 * later Unlocks.
 */
export async function openSignedInVault<V>(
  platform: Pick<KeyPlatform<V>, 'memory' | 'open'>,
  keys: CheckedSignInKeys,
  answer: { username: string; protectedKey: string; keyEpoch?: unknown; userId?: string | undefined },
): Promise<V> {
  try {
    checkAnsweredAccount(keys.username, answer.username);
  } catch (error) {
    // The session the server opened is not the typed account's: ended like any unverified key.
    if (error instanceof AnsweredAccountMismatchError) throw new VaultUnlockError(error.message);
    throw error;
  }
  let keyEpoch: number;
  try {
    keyEpoch = await checkServerKeyEpoch(platform.memory, keys.account, answer);
  } catch (error) {
    // The session just opened holds a key this device saw replaced: ended like any unverified key, with why.
    throw new VaultUnlockError(error instanceof KdfParamsRejectedError ? error.message : undefined);
  }
  let vault: V;
  try {
    const bytes = await unwrapVaultKey(answer.protectedKey, keys.wrapKey, keys.kdf, keys.salt, keys.keyGeneration, keyEpoch);
    vault = await platform.open(bytes, {
      username: answer.username,
      account: keys.account,
      kdf: keys.kdf,
      salt: keys.salt,
      protectedKey: answer.protectedKey,
      keyGeneration: keys.keyGeneration,
      keyEpoch,
    });
  } catch {
    throw new VaultUnlockError();
  }
  const { memory } = platform;
  // The key unwrapped under these params, so someone holding the password chose them.
  await memory.rememberKdfParams(keys.account, keys.kdf);
  await memory.rememberKeyGeneration(keys.account, keys.keyGeneration);
  await memory.rememberKeyEpoch(keys.account, keyEpoch);
  await memory.bindSession(keys.account);
  // A passkey of this account used here later finds this memory by its user handle.
  if (answer.userId) await memory.rememberUserHandle(answer.userId, keys.account);
  return vault;
}
