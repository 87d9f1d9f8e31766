import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { apiPaths } from '@lockit/contract';
import {
  deriveKeysFromPassword,
  generateVaultKeyBytes,
  randomSalt,
  wrapVaultKey,
  type AccountKeys,
  type KdfParams,
} from '@lockit/crypto';
import type { ApiClient } from './api-client';
import type { TestHarness } from './test-app';

/** The floor of the KDF policy: real Argon2id, but fast enough for tests. */
export const FLOOR_KDF: KdfParams = { algorithm: 'argon2id', memoryKiB: 19_456, iterations: 2, parallelism: 1 };

export interface KeyMaterial {
  password: string;
  salt: string;
  kdf: KdfParams;
  keys: AccountKeys;
  vaultKeyBytes: Uint8Array;
  protectedKey: string;
}

export interface TestAccount extends KeyMaterial {
  fullname: string;
  username: string;
  email: string;
}

/** What the browser computes at sign-up (or password change, given the same vault key). */
export async function makeKeyMaterial(password: string, vaultKeyBytes = generateVaultKeyBytes()): Promise<KeyMaterial> {
  const salt = randomSalt();
  const keys = await deriveKeysFromPassword(password, salt, FLOOR_KDF);
  const protectedKey = await wrapVaultKey(vaultKeyBytes, keys.wrapKey, FLOOR_KDF, salt);
  return { password, salt, kdf: FLOOR_KDF, keys, vaultKeyBytes, protectedKey };
}

export function uniqueName(prefix = 'user'): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`;
}

export async function newAccount(overrides: Partial<Pick<TestAccount, 'username' | 'email' | 'password' | 'fullname'>> = {}): Promise<TestAccount> {
  const username = overrides.username ?? uniqueName();
  const material = await makeKeyMaterial(overrides.password ?? `correct horse ${randomBytes(4).toString('hex')}`);
  return {
    ...material,
    fullname: overrides.fullname ?? 'Test Person',
    username,
    email: overrides.email ?? `${username.toLowerCase()}@example.test`,
  };
}

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

/** Asks for a code and returns it from the SMTP sink. */
export async function requestCode(h: TestHarness, client: ApiClient, account: Pick<TestAccount, 'username' | 'email'>) {
  const nth = h.sink.mailsTo(account.email).length + 1;
  const response = await client.post(apiPaths.sendCode, { email: account.email, username: account.username });
  expect(response.statusCode).toBe(200);
  return h.sink.waitForCode(account.email, nth);
}

/** Sign-up as the web app does it: create, send-code, verify-code with the mailed code. */
export async function signUpAndVerify(h: TestHarness, client: ApiClient, account: TestAccount): Promise<void> {
  const created = await client.post(apiPaths.createUser, createBody(account));
  expect(created.statusCode).toBe(201);
  const code = await requestCode(h, client, account);
  const verified = await client.post(apiPaths.verifyCode, { email: account.email, username: account.username, code });
  expect(verified.statusCode).toBe(200);
}

export function login(client: ApiClient, account: Pick<TestAccount, 'username' | 'keys'>) {
  return client.post(apiPaths.login, { username: account.username, password: account.keys.authKey });
}

/** A verified, signed-in account and the client holding its cookies. */
export async function signedInUser(h: TestHarness, overrides?: Parameters<typeof newAccount>[0]) {
  const account = await newAccount(overrides);
  const client = h.client();
  await signUpAndVerify(h, client, account);
  const response = await login(client, account);
  expect(response.statusCode).toBe(200);
  return { account, client };
}
