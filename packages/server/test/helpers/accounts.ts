import { expect } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { createBody, newAccount, type TestAccount } from '@lockit/test-support';
import type { InjectClient } from './inject-client';
import type { TestHarness } from './test-app';

export {
  createBody,
  FLOOR_KDF,
  makeKeyMaterial,
  newAccount,
  uniqueName,
  type KeyMaterial,
  type TestAccount,
} from '@lockit/test-support';

/** Asks for a code and returns it from the SMTP sink. */
export async function requestCode(h: TestHarness, client: InjectClient, account: Pick<TestAccount, 'username' | 'email'>) {
  const nth = h.sink.mailsTo(account.email).length + 1;
  const response = await client.post(apiPaths.sendCode, { email: account.email, username: account.username });
  expect(response.statusCode).toBe(200);
  return h.sink.waitForCode(account.email, nth);
}

/** Sign-up as the web app does it: create, send-code, verify-code with the mailed code. */
export async function signUpAndVerify(h: TestHarness, client: InjectClient, account: TestAccount): Promise<void> {
  const created = await client.post(apiPaths.createUser, createBody(account));
  expect(created.statusCode).toBe(201);
  const code = await requestCode(h, client, account);
  const verified = await client.post(apiPaths.verifyCode, { email: account.email, username: account.username, code });
  expect(verified.statusCode).toBe(200);
}

export function login(client: InjectClient, account: Pick<TestAccount, 'username' | 'keys'>) {
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
