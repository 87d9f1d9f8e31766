import { randomBytes } from 'node:crypto';
import { apiPaths } from '@lockit/contract';
import {
  deriveKeysFromPassword,
  generateVaultKeyBytes,
  importVaultKey,
  randomSalt,
  unwrapVaultKey,
  wrapVaultKey,
  type AccountKeys,
  type KdfParams,
} from '@lockit/crypto';
import type { ApiClient } from './api-client';
import type { CodeInbox } from './code-inbox';

/** The floor of the KDF policy: real Argon2id, fast enough for tests and for seeding benches. */
export const FLOOR_KDF: KdfParams = { algorithm: 'argon2id', memoryKiB: 65_536, iterations: 3, parallelism: 1 };

/** What the browser computes at sign-up (or at a password change, given the same vault key). */
export interface KeyMaterial {
  password: string;
  salt: string;
  kdf: KdfParams;
  keys: AccountKeys;
  vaultKeyBytes: Uint8Array;
  protectedKey: string;
  /** The key generation protectedKey was wrapped for (0 at sign-up, +1 per password change). */
  keyGeneration: number;
}

export interface TestAccount extends KeyMaterial {
  fullname: string;
  username: string;
  email: string;
}

export async function makeKeyMaterial(
  password: string,
  vaultKeyBytes = generateVaultKeyBytes(),
  kdf: KdfParams = FLOOR_KDF,
  keyGeneration = 0,
): Promise<KeyMaterial> {
  const salt = randomSalt();
  const keys = await deriveKeysFromPassword(password, salt, kdf);
  const protectedKey = await wrapVaultKey(vaultKeyBytes, keys.wrapKey, kdf, salt, keyGeneration);
  return { password, salt, kdf, keys, vaultKeyBytes, protectedKey, keyGeneration };
}

export function uniqueName(prefix = 'user'): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`;
}

export interface NewAccountOptions {
  username?: string;
  email?: string;
  password?: string;
  fullname?: string;
  kdf?: KdfParams;
  /** Reuse keys derived once (benches seed thousands of accounts with one KDF run). */
  keyMaterial?: KeyMaterial;
}

/** The password, salt and derived keys shared by the accounts of one process that ask for none. */
let sharedDerivation: Promise<KeyMaterial> | undefined;

/**
 * Key material for an account that names no password, KDF or key material: the process's one
 * Argon2id derivation (about 260 ms at the floor, which hundreds of accounts per suite paid
 * again), with a vault key of its own, wrapped for it. Such accounts share a master password
 * and salt, as two people may; their vaults stay apart. A test that needs a password of its
 * own (one account's password must fail for another) names it.
 */
async function sharedKeyMaterial(): Promise<KeyMaterial> {
  sharedDerivation ??= makeKeyMaterial(`correct horse ${randomBytes(4).toString('hex')}`);
  const shared = await sharedDerivation;
  const vaultKeyBytes = generateVaultKeyBytes();
  const protectedKey = await wrapVaultKey(vaultKeyBytes, shared.keys.wrapKey, shared.kdf, shared.salt, 0);
  return { ...shared, vaultKeyBytes, protectedKey };
}

/** A person who has not signed up yet, with the keys their browser would derive. */
export async function newAccount(options: NewAccountOptions = {}): Promise<TestAccount> {
  const username = options.username ?? uniqueName();
  const material =
    options.keyMaterial ??
    (options.password === undefined && options.kdf === undefined
      ? await sharedKeyMaterial()
      : await makeKeyMaterial(options.password ?? `correct horse ${randomBytes(4).toString('hex')}`, undefined, options.kdf));
  return {
    ...material,
    fullname: options.fullname ?? 'Test Person',
    username,
    email: options.email ?? `${username.toLowerCase()}@example.test`,
  };
}

/** The sign-up call's body, as the web app sends it. */
export function createBody(account: TestAccount) {
  return {
    fullname: account.fullname,
    username: account.username,
    email: account.email,
    password: account.keys.authKey,
    kdf: account.kdf,
    salt: account.salt,
    protectedKey: account.protectedKey,
  };
}

/** Create, send-code, verify-code with the code from `inbox`: a verified, signed-out account. */
export async function signUpOverHttp(client: ApiClient, inbox: CodeInbox, account: TestAccount): Promise<void> {
  await client.expect(201, 'POST', apiPaths.createUser, createBody(account));
  const code = inbox.expectCode(account);
  await client.expect(200, 'POST', apiPaths.sendCode, { email: account.email, username: account.username });
  await client.expect(200, 'POST', apiPaths.verifyCode, { email: account.email, username: account.username, code: await code() });
}

/**
 * Sign-in as the web app does it: prelogin for salt and params, the KDF, login; returns the
 * unwrapped vault key (the server's params are taken as they come: tests of the policy use
 * the web app itself).
 */
export async function signInOverHttp(client: ApiClient, username: string, password: string): Promise<CryptoKey> {
  const pre = await client.expect<{ data: { salt: string; kdf: KdfParams; keyGeneration?: number } }>(
    200,
    'POST',
    apiPaths.prelogin,
    { username },
  );
  const keys = await deriveKeysFromPassword(password, pre.data.salt, pre.data.kdf);
  const login = await client.expect<{ data: { protectedKey: string; keyEpoch?: number } }>(200, 'POST', apiPaths.login, {
    username,
    password: keys.authKey,
  });
  const bytes = await unwrapVaultKey(
    login.data.protectedKey,
    keys.wrapKey,
    pre.data.kdf,
    pre.data.salt,
    pre.data.keyGeneration,
    login.data.keyEpoch,
  );
  return importVaultKey(bytes);
}

/** Signs in with keys already derived (no KDF): what a browser that knows them sends. */
export async function logInWithKeys(client: ApiClient, account: Pick<TestAccount, 'username' | 'keys'>): Promise<void> {
  await client.expect(200, 'POST', apiPaths.login, { username: account.username, password: account.keys.authKey });
}
