import { unwrapVaultKey, type KdfParams } from '@lockit/crypto';
import { rememberKdfParams } from '@/lib/kdf-memory';
import { rememberKeyGeneration } from '@/lib/key-generation-memory';
import type { UnlockedVault } from '@/lib/keyring';
import { unlockedVaultFromKeyBytes } from '@/lib/unlocked-vault-from-key-bytes';

/** The server's key data did not verify: the session must be ended and nothing unlocked. */
export class VaultUnlockError extends Error {
  override readonly name = 'VaultUnlockError';
  constructor() {
    super("Lockit could not unlock your vault: the server's key data failed verification.");
  }
}

/** What the sign-in checked before it sent anything: prelogin's params and salt, and the derived wrapKey. */
export interface CheckedSignInKeys {
  username: string;
  kdf: KdfParams;
  salt: string;
  /** The key generation checked at prelogin (no lower than this browser saw). */
  keyGeneration: number;
  /** AES-256-GCM, non-extractable, in memory only. */
  wrapKey: CryptoKey;
}

/**
 * Unwraps the vault key the server answered after a successful sign-in (password alone, or
 * password and a second factor) and builds the tab's unlocked vault.
 *
 * Security invariants: the unwrap uses only the params, salt and key generation checked at
 * prelogin (`keys`), never anything a later answer carries; the wrap's associated data binds
 * them, so a server that changed them fails here (VaultUnlockError). Raw key bytes are wiped
 * once imported (unlockedVaultFromKeyBytes). The params and generation are remembered only after the key unwrapped under them.
 */
export async function openVault(
  keys: CheckedSignInKeys,
  answer: { username: string; protectedKey: string },
): Promise<UnlockedVault> {
  let vault: UnlockedVault;
  try {
    const bytes = await unwrapVaultKey(answer.protectedKey, keys.wrapKey, keys.kdf, keys.salt, keys.keyGeneration);
    vault = await unlockedVaultFromKeyBytes(bytes, {
      username: answer.username,
      kdf: keys.kdf,
      salt: keys.salt,
      protectedKey: answer.protectedKey,
      keyGeneration: keys.keyGeneration,
    });
  } catch {
    throw new VaultUnlockError();
  }
  // The key unwrapped under these params, so someone holding the password chose them.
  await rememberKdfParams(keys.username, keys.kdf);
  await rememberKeyGeneration(keys.username, keys.keyGeneration);
  return vault;
}
