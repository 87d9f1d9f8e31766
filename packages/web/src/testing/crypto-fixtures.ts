import { accountRefOf } from '@lockit/client-core';
import {
  deriveKeysFromPassword,
  deriveVaultIntegrityKey,
  generateVaultKeyBytes,
  importVaultKey,
  KDF_LIMITS,
  randomSalt,
  wrapVaultKey,
  type AccountKeys,
  type KdfParams,
} from '@lockit/crypto';
import type { UnlockedVault } from '@/lib/keyring';

/** The cheapest params the client accepts (the policy floor), to keep tests quick. */
export const FLOOR_KDF: KdfParams = {
  algorithm: 'argon2id',
  memoryKiB: KDF_LIMITS.minMemoryKiB,
  iterations: KDF_LIMITS.minIterations,
  parallelism: KDF_LIMITS.minParallelism,
};

const derivations = new Map<string, Promise<{ salt: string; keys: AccountKeys }>>();

/**
 * The salt and keys of a master password at these params: one Argon2id run per password and
 * params in a worker (some 300 ms of CPU each, paid by dozens of tests with the same password
 * before). Accounts made with the same password share its salt, as two people's could; each
 * still gets a vault key of its own.
 */
function derivedOnce(password: string, kdf: KdfParams): Promise<{ salt: string; keys: AccountKeys }> {
  const key = JSON.stringify([password, kdf]);
  let derivation = derivations.get(key);
  if (!derivation) {
    const salt = randomSalt();
    derivation = deriveKeysFromPassword(password, salt, kdf).then((keys) => ({ salt, keys }));
    derivations.set(key, derivation);
  }
  return derivation;
}

/** What the server would hold for an account with this master password (real crypto). */
export async function makeAccountKeys(password: string, kdf: KdfParams = FLOOR_KDF) {
  const { salt, keys } = await derivedOnce(password, kdf);
  const vaultKeyBytes = generateVaultKeyBytes();
  const protectedKey = await wrapVaultKey(vaultKeyBytes, keys.wrapKey, kdf, salt);
  return { kdf, salt, authKey: keys.authKey, protectedKey, vaultKeyBytes };
}

/** An unlocked vault as sign-in leaves it in the keyring. */
export async function makeUnlockedVault(username: string, password: string, kdf: KdfParams = FLOOR_KDF) {
  const account = await makeAccountKeys(password, kdf);
  const vault: UnlockedVault = {
    username,
    account: await accountRefOf(username),
    vaultKey: await importVaultKey(account.vaultKeyBytes),
    integrityKey: await deriveVaultIntegrityKey(account.vaultKeyBytes),
    kdf: account.kdf,
    salt: account.salt,
    protectedKey: account.protectedKey,
  };
  return { account, vault };
}
