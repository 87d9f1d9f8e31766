import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { DEFAULT_KDF_PARAMS, type KdfParams } from '@lockit/crypto';
import { useE2e } from './support/setup';
import { createAccountViaApi, findSecrets, sentText } from './support/hostile';
import { changeMasterPassword, header, newAccount, signIn, submitSignIn, type Account } from './support/journeys';
import { startTamperingProxy, type TamperingProxy } from '@lockit/test-support';

const e2e = useE2e();

/**
 * Issue 15, a hostile server against the browser's key checks: a replayed key after a
 * password change (key generations) and KDF params heavier than the device can run. Each
 * test checks what the person sees and that nothing is sent after the lie.
 */

let proxy: TamperingProxy;
const opened: BrowserContext[] = [];

beforeAll(async () => {
  proxy = await startTamperingProxy(e2e.server.url);
});

afterEach(async () => {
  proxy.clearRules();
  await Promise.all(opened.splice(0).map((context) => context.close()));
});

afterAll(async () => {
  await proxy?.close();
});

async function device(init?: string): Promise<Page> {
  const context = await e2e.newContext({ baseURL: proxy.url });
  opened.push(context);
  if (init) await context.addInitScript(init);
  return context.newPage();
}

const sentSince = (from: number) => proxy.recorded.slice(from);
/** Every write or sign-in call after `from` other than prelogin: what a lie must not lead to. */
const sentAfterPrelogin = (from: number) =>
  sentSince(from).filter((r) => r.method !== 'GET' && r.path !== '/api/users/prelogin' && r.path !== '/api/users/verify');

async function expectNothingOpened(page: Page) {
  expect(new URL(page.url()).pathname).toBe('/signin');
  await header(page).getByRole('link', { name: 'Sign In' }).first().waitFor();
  await page.goto('/vault');
  await page.getByText('Access Denied - You must be logged in to access the Password Vault.').waitFor();
}

describe('a hostile server against key generations and the device ceiling', () => {
  it('replaying the old salt and wrapped key after a password change is refused before any work, and nothing is sent after it', async () => {
    const account: Account = newAccount('replay');
    // The defaults: the KDF memory alone cannot tell the old answer from the new one.
    await createAccountViaApi(e2e.server.url, e2e.smtp, account, { ...DEFAULT_KDF_PARAMS });
    const page = await device();
    const errors = e2e.errors;
    await signIn(page, account.username, account.password);
    const before = {
      prelogin: proxy.lastAnswer('POST', '/api/users/prelogin') as {
        message: string;
        data: { kdf: KdfParams; salt: string; keyGeneration: number };
      },
      login: proxy.lastAnswer('POST', '/api/users/login') as {
        message: string;
        data: { protectedKey: string; keyGeneration: number };
      },
    };
    expect(before.prelogin.data.keyGeneration).toBe(0);

    const newPassword = 'the replacement master passphrase 9137';
    await header(page).getByRole('link', { name: 'Profile' }).first().click();
    expect(await changeMasterPassword(page, account.password, newPassword)).toBe('✅ Password updated successfully');
    await page.getByRole('main').getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/signin');

    // The server "forgets" the change: it answers the old salt, params, generation and wrap.
    proxy.rewrite({ method: 'POST', path: '/api/users/prelogin', rewrite: () => before.prelogin });
    proxy.rewrite({
      method: 'POST',
      path: '/api/users/login',
      rewrite: (response) => {
        (response.body as { data: Record<string, unknown> }).data.protectedKey = before.login.data.protectedKey;
        (response.body as { data: Record<string, unknown> }).data.keyGeneration = 0;
      },
    });
    const from = proxy.recorded.length;
    await submitSignIn(page, account.username, account.password);
    await page
      .getByRole('alert')
      .filter({
        hasText:
          'The server answered an older key (generation 0) than this browser has already seen for this account (generation 1): it may be replaying the key from before a password change. Sign-in was stopped to protect your password.',
      })
      .waitFor();

    expect(sentAfterPrelogin(from)).toEqual([]);
    expect(findSecrets(sentText(sentSince(from)), { oldPassword: account.password, newPassword })).toEqual([]);
    await expectNothingOpened(page);
    expect(errors).toEqual([]);
  });

  it('params beyond what the device can run are refused before any work, the page stays usable, and nothing is sent after them', async () => {
    const account: Account = newAccount('device');
    await createAccountViaApi(e2e.server.url, e2e.smtp, account, { ...DEFAULT_KDF_PARAMS });
    // A device that reports 1 GiB of memory (navigator.deviceMemory): at most 128 MiB for Argon2id.
    const page = await device("Object.defineProperty(Navigator.prototype, 'deviceMemory', { get: () => 1 });");
    const errors = e2e.errors;
    const heavy: KdfParams = { algorithm: 'argon2id', memoryKiB: 1024 * 1024, iterations: 10, parallelism: 4 };
    proxy.rewrite({
      method: 'POST',
      path: '/api/users/prelogin',
      rewrite: (response) => {
        (response.body as { data: Record<string, unknown> }).data.kdf = heavy;
      },
    });
    await page.goto('/signin');
    const from = proxy.recorded.length;
    await submitSignIn(page, account.username, account.password);
    await page
      .getByRole('alert')
      .filter({
        hasText:
          'The server asked for key-derivation settings heavier than this device can run (1024 MiB of memory and 10 passes; this device allows at most 128 MiB and 10 passes at that size). Sign-in was stopped before any work started, so the page does not freeze.',
      })
      .waitFor({ timeout: 5_000 });

    expect(sentAfterPrelogin(from)).toEqual([]);
    expect(findSecrets(sentText(sentSince(from)), { masterPassword: account.password })).toEqual([]);
    // The tab never froze: the form still answers at once.
    await page.getByLabel('Username').fill('still responsive', { timeout: 1_000 });
    await expectNothingOpened(page);
    expect(errors).toEqual([]);
  });
});
