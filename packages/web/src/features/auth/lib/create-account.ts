import { accountRefOf } from '@lockit/client-core';
import { DEFAULT_KDF_PARAMS, generateVaultKeyBytes, randomSalt, wrapVaultKey } from '@lockit/crypto';
import { deriveKeys } from '@/lib/derive-keys';
import { deviceMemory } from '@/lib/device-memory';
import { createUser } from '../api/create-user';

/** A new account's first wrapped key is generation 1; every password change adds 1. */
const FIRST_KEY_GENERATION = 1;

export interface SignUpFields {
  fullname: string;
  username: string;
  email: string;
  password: string;
}

/**
 * Sign-up: a fresh 16-byte salt and Lockit's default Argon2id params, keys derived from the
 * master password, a new random vault key wrapped under wrapKey, then POST create.
 *
 * Security invariants: the master password never leaves this function (only authKey is
 * sent); the vault key bytes are wiped once wrapped; the server receives only the wrapped
 * copy, whose associated data binds the params, salt and key generation (1, the first). Once
 * the server took them, this browser remembers the params and the generation, so it never
 * accepts weaker params or an older key for this account later.
 * `invite` is the invitation link's token (SIGNUP_MODE=invite), sent as it came.
 */
export async function createAccount(fields: SignUpFields, invite?: string) {
  const salt = randomSalt();
  const kdf = { ...DEFAULT_KDF_PARAMS };
  const keys = await deriveKeys(fields.password, salt, kdf);
  const vaultKeyBytes = generateVaultKeyBytes();
  let protectedKey: string;
  try {
    protectedKey = await wrapVaultKey(vaultKeyBytes, keys.wrapKey, kdf, salt, FIRST_KEY_GENERATION);
  } finally {
    vaultKeyBytes.fill(0);
  }
  const created = await createUser({
    fullname: fields.fullname,
    username: fields.username,
    email: fields.email,
    password: keys.authKey,
    kdf,
    salt,
    protectedKey,
    keyGeneration: FIRST_KEY_GENERATION,
    ...(invite !== undefined ? { invite } : {}),
  });
  const account = await accountRefOf(fields.username);
  await deviceMemory.rememberKdfParams(account, kdf);
  await deviceMemory.rememberKeyGeneration(account, FIRST_KEY_GENERATION);
  return created;
}
