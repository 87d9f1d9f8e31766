import { checkKdfParams, importVaultKey, unwrapVaultKey } from '@lockit/crypto';
import { deriveKeys } from '@/lib/derive-keys';
import { checkRememberedKdfParams, rememberKdfParams } from '@/lib/kdf-memory';
import type { ReloadSeal, UnlockedVault } from '@/lib/keyring';
import { sealForReload } from '@/lib/reload-unlock/reload-vault';
import { login } from '../api/login';
import { prelogin } from '../api/prelogin';

/** The server's key data did not verify: the session must be ended and nothing unlocked. */
export class VaultUnlockError extends Error {
  override readonly name = 'VaultUnlockError';
  constructor() {
    super("Lockit could not unlock your vault: the server's key data failed verification.");
  }
}

export interface SignInResult {
  message: string;
  vault: UnlockedVault;
}

/**
 * Sign-in, zero-knowledge style:
 * prelogin -> checkKdfParams -> derive keys -> login with authKey -> unwrap the vault key.
 *
 * Security invariants:
 * - Nothing is sent after prelogin unless its params pass the floor/ceiling policy and its
 *   salt is usable, and are no weaker than this browser already used for the account
 *   (KdfParamsRejectedError otherwise): a hostile server cannot get an authKey derived with
 *   weak settings, nor roll a password change back to weaker ones unnoticed.
 * - The vault key is unwrapped with the params and salt checked at prelogin, never with
 *   anything login returns; the wrap's associated data binds them, so tampering fails.
 * - The master password goes only into the KDF; the server sees only authKey.
 *
 * Errors: KdfParamsRejectedError, ApiError (401/403/429...), NetworkError,
 * UnexpectedResponseError, and VaultUnlockError after a successful login.
 */
export async function signIn(username: string, password: string): Promise<SignInResult> {
  const pre = await prelogin({ username });
  const kdf = checkKdfParams(pre.kdf);
  await checkRememberedKdfParams(username, kdf);
  const keys = await deriveKeys(password, pre.salt, kdf);
  const answer = await login({ username, password: keys.authKey });

  let vaultKey: CryptoKey;
  let reloadSeal: ReloadSeal | undefined;
  try {
    const bytes = await unwrapVaultKey(answer.data.protectedKey, keys.wrapKey, kdf, pre.salt);
    try {
      vaultKey = await importVaultKey(bytes);
      reloadSeal = await sealForReload(bytes);
    } finally {
      bytes.fill(0);
    }
  } catch {
    throw new VaultUnlockError();
  }
  // The key unwrapped under these params, so someone holding the password chose them.
  await rememberKdfParams(username, kdf);
  return {
    message: answer.message,
    vault: { username: answer.data.username, vaultKey, kdf, salt: pre.salt, protectedKey: answer.data.protectedKey, reloadSeal },
  };
}
