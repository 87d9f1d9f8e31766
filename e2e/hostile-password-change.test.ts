import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { DEFAULT_KDF_PARAMS, type KdfParams } from '@lockit/crypto';
import { useE2e } from './support/setup';
import { authKeyOf, createAccountViaApi, findSecrets, sentText } from './support/hostile';
import { header, newAccount, signIn, submitSignIn, type Account, changeMasterPassword } from './support/journeys';
import { startTamperingProxy, type TamperingProxy } from '@lockit/test-support';

const e2e = useE2e();

/**
 * Attack 10: the server answers a password change with success but keeps what it had. The
 * account was made (through the API, as an older client could have) with the weakest params
 * the policy allows; in this browser the person changes the password, which sets Lockit's
 * defaults. The browser must then refuse to go back to the weaker params, and must refuse
 * the old wrapped key served with the new params.
 */

let proxy: TamperingProxy;
let context: BrowserContext;
let page: Page;
let errors: string[];
let account: Account;
const newPassword = 'a brand new master passphrase 4711';
/** The cheapest params the policy allows (one lane where the defaults have four). */
const floor: KdfParams = { algorithm: 'argon2id', memoryKiB: 64 * 1024, iterations: 3, parallelism: 1 };
/** What the server held before the change: the answers it would go back to. */
let before: { prelogin: { data: { kdf: KdfParams; salt: string } }; protectedKey: string };

const UNLOCK_REFUSED = "Lockit could not unlock your vault: the server's key data failed verification.";

beforeAll(async () => {
  proxy = await startTamperingProxy(e2e.server.url);

  account = newAccount('rollback');
  await createAccountViaApi(e2e.server.url, e2e.smtp, account, floor);
  context = await e2e.newContext({ baseURL: proxy.url });
  errors = e2e.errors;
  page = await context.newPage();

  await signIn(page, account.username, account.password);
  before = {
    prelogin: proxy.lastAnswer('POST', '/api/users/prelogin') as typeof before.prelogin,
    protectedKey: (proxy.lastAnswer('POST', '/api/users/login') as { data: { protectedKey: string } }).data.protectedKey,
  };
  expect(before.prelogin.data.kdf).toEqual(floor);

  await header(page).getByRole('link', { name: 'Profile' }).first().click();
  expect(await changeMasterPassword(page, account.password, newPassword)).toBe('✅ Password updated successfully');
  await page.getByRole('main').getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL('**/signin');
  expect(errors).toEqual([]);
});

afterAll(async () => {
  await proxy?.close();
});

const sentSince = (from: number) => proxy.recorded.slice(from);
const calls = (from: number, method: string, path: string) =>
  sentSince(from).filter((r) => r.method === method && r.path === path);

async function expectNothingOpened() {
  expect(new URL(page.url()).pathname).toBe('/signin');
  await header(page).getByRole('link', { name: 'Sign In' }).first().waitFor();
  await page.goto('/vault');
  await page.getByText('Access Denied - You must be logged in to access the Password Vault.').waitFor();
}

describe('a hostile server after a password change', () => {
  it('attack 10: the old, weaker params served again are refused by the browser that set stronger ones, before any authKey is sent', async () => {
    proxy.rewrite({ method: 'POST', path: '/api/users/prelogin', times: 1, rewrite: () => before.prelogin });
    const from = proxy.recorded.length;

    await submitSignIn(page, account.username, newPassword);
    await page
      .getByRole('alert')
      .filter({
        hasText:
          'The server asked for key-derivation settings weaker than the ones this browser already used for this account (lanes 1, this browser used 4). Sign-in was stopped to protect your password.',
      })
      .waitFor();

    expect(calls(from, 'POST', '/api/users/login')).toEqual([]);
    const downgraded = await authKeyOf(newPassword, before.prelogin.data.salt, floor);
    expect(findSecrets(sentText(sentSince(from)), { newPassword, oldPassword: account.password, downgraded })).toEqual([]);
    await expectNothingOpened();
    expect(errors).toEqual([]);
  });

  it('attack 10: the old wrapped key served with the new params fails the unwrap, and the session is ended', async () => {
    const current = (await (
      await fetch(`${e2e.server.url}/api/users/prelogin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-lockit-client': 'web' },
        body: JSON.stringify({ username: account.username }),
      })
    ).json()) as { data: { kdf: KdfParams } };
    expect(current.data.kdf).toEqual(DEFAULT_KDF_PARAMS);
    proxy.rewrite({
      method: 'POST',
      path: '/api/users/login',
      times: 1,
      rewrite: (response) => {
        (response.body as { data: { protectedKey: string } }).data.protectedKey = before.protectedKey;
      },
    });
    const from = proxy.recorded.length;

    await submitSignIn(page, account.username, newPassword);
    await page.getByRole('alert').filter({ hasText: UNLOCK_REFUSED }).waitFor();

    await expect.poll(() => calls(from, 'POST', '/api/users/logout').length).toBe(1);
    expect(sentSince(from).filter((r) => r.path.startsWith('/api/passwords'))).toEqual([]);
    expect(findSecrets(sentText(sentSince(from)), { newPassword, oldPassword: account.password })).toEqual([]);
    await expectNothingOpened();

    // Told the truth, the same browser signs in with the new password.
    await signIn(page, account.username, newPassword);
    expect(errors).toEqual([]);
  });
});
