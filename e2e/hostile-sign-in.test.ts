import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { DEFAULT_KDF_PARAMS, randomSalt, type KdfParams } from '@lockit/crypto';
import { useE2e } from './support/setup';
import { authKeyOf, authKeyUnchecked, findSecrets, forgeProtectedKey, sentText } from './support/hostile';
import { header, newAccount, signUpAndVerify, submitSignIn, type Account } from './support/journeys';
import { startTamperingProxy, type TamperingProxy } from '@lockit/test-support';

const e2e = useE2e();

/**
 * A hostile server at sign-in: the browser talks only to the tampering proxy, which forwards
 * to the real server and lies where each test says. Every test signs in from a fresh browser
 * profile (another device), so only the checks built into the app stand in the way.
 */

let proxy: TamperingProxy;
let victim: Account;
let real: { salt: string; kdf: KdfParams; authKey: string };
const opened: BrowserContext[] = [];

const UNLOCK_REFUSED = "Lockit could not unlock your vault: the server's key data failed verification.";

beforeAll(async () => {
  proxy = await startTamperingProxy(e2e.server.url);

  victim = newAccount('victim');
  const { page } = await freshDevice();
  await signUpAndVerify(page, e2e.smtp, victim);
  const pre = (await (
    await fetch(`${e2e.server.url}/api/users/prelogin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-lockit-client': 'web' },
      body: JSON.stringify({ username: victim.username }),
    })
  ).json()) as { data: { salt: string; kdf: KdfParams } };
  real = { ...pre.data, authKey: await authKeyOf(victim.password, pre.data.salt, pre.data.kdf) };
  expect(real.kdf).toEqual(DEFAULT_KDF_PARAMS);
});

afterEach(async () => {
  proxy.clearRules();
  await Promise.all(opened.splice(0).map((context) => context.close()));
});

afterAll(async () => {
  await proxy?.close();
});

/** A new browser profile (no storage from earlier tests) pointed at the hostile server. */
async function freshDevice(): Promise<{ page: Page; errors: string[] }> {
  const context = await e2e.newContext({ baseURL: proxy.url });
  opened.push(context);
  const errors = e2e.errors;
  return { page: await context.newPage(), errors };
}

const sentSince = (from: number) => proxy.recorded.slice(from);
const calls = (from: number, method: string, path: string) =>
  sentSince(from).filter((r) => r.method === method && r.path === path);

/** Nothing of the vault is open: still on the sign-in form, signed out, /vault refused. */
async function expectNothingOpened(page: Page) {
  expect(new URL(page.url()).pathname).toBe('/signin');
  await header(page).getByRole('link', { name: 'Sign In' }).first().waitFor();
  await page.goto('/vault');
  await page.getByText('Access Denied - You must be logged in to access the Password Vault.').waitFor();
}

/** The server accepts whatever authKey the browser sends (the real one is swapped in). */
function acceptAnyAuthKey() {
  proxy.rewriteRequest({
    method: 'POST',
    path: '/api/users/login',
    rewrite: (body) => ({ ...(body as object), password: real.authKey }),
  });
}

describe('a hostile server at sign-in', () => {
  it('attack 1: prelogin below the KDF floor (m = 1 MiB, t = 1) is refused before any authKey is sent', async () => {
    const { page, errors } = await freshDevice();
    const weak: KdfParams = { algorithm: 'argon2id', memoryKiB: 1024, iterations: 1, parallelism: 1 };
    proxy.rewrite({
      method: 'POST',
      path: '/api/users/prelogin',
      rewrite: () => ({ message: 'OK', data: { kdf: weak, salt: real.salt } }),
    });
    const from = proxy.recorded.length;

    await submitSignIn(page, victim.username, victim.password);
    await page
      .getByRole('alert')
      .filter({
        hasText:
          'The server asked for key-derivation settings weaker than Lockit allows (memory 1024 KiB, minimum 65536 KiB; passes 1, minimum 3). Sign-in was stopped to protect your password.',
      })
      .waitFor();

    expect(calls(from, 'POST', '/api/users/prelogin')).toHaveLength(1);
    expect(calls(from, 'POST', '/api/users/login')).toEqual([]);
    const downgraded = await authKeyUnchecked(victim.password, real.salt, weak);
    expect(findSecrets(sentText(sentSince(from)), { masterPassword: victim.password, downgraded })).toEqual([]);
    await expectNothingOpened(page);
    expect(errors).toEqual([]);
  });

  it('attack 2: prelogin with another salt fails the unwrap: nothing opens and the session is ended', async () => {
    const { page, errors } = await freshDevice();
    const otherSalt = randomSalt();
    proxy.rewrite({
      method: 'POST',
      path: '/api/users/prelogin',
      rewrite: () => ({ message: 'OK', data: { kdf: real.kdf, salt: otherSalt } }),
    });
    acceptAnyAuthKey();
    const from = proxy.recorded.length;

    await submitSignIn(page, victim.username, victim.password);
    await page.getByRole('alert').filter({ hasText: UNLOCK_REFUSED }).waitFor();

    // The hostile server let the sign-in through; the client ended that session itself.
    const [login] = calls(from, 'POST', '/api/users/login');
    expect(login?.answer?.status).toBe(200);
    await expect.poll(() => calls(from, 'POST', '/api/users/logout').length).toBe(1);
    // The proxy records the request before its answer: wait for the answer too.
    await expect.poll(() => calls(from, 'POST', '/api/users/logout')[0]?.answer?.status).toBe(200);
    expect(sentSince(from).filter((r) => r.path.startsWith('/api/passwords'))).toEqual([]);
    expect(findSecrets(sentText(sentSince(from)), { masterPassword: victim.password })).toEqual([]);
    await expectNothingOpened(page);
    expect(errors).toEqual([]);
  });

  it('attack 2: prelogin answering the old floor (19 MiB, t = 2) on a new browser is refused before any work, and nothing is sent after it', async () => {
    const { page, errors } = await freshDevice();
    const oldFloor: KdfParams = { algorithm: 'argon2id', memoryKiB: 19 * 1024, iterations: 2, parallelism: 1 };
    proxy.rewrite({
      method: 'POST',
      path: '/api/users/prelogin',
      rewrite: () => ({ message: 'OK', data: { kdf: oldFloor, salt: real.salt } }),
    });
    const from = proxy.recorded.length;

    await submitSignIn(page, victim.username, victim.password);
    await page
      .getByRole('alert')
      .filter({
        hasText:
          'The server asked for key-derivation settings weaker than Lockit allows (memory 19456 KiB, minimum 65536 KiB; passes 2, minimum 3). Sign-in was stopped to protect your password.',
      })
      .waitFor();

    // Nothing after the lie: no login, so no authKey derived under the cheap params left the browser.
    expect(sentSince(from).filter((r) => r.path !== '/api/users/prelogin' && r.method !== 'GET')).toEqual([]);
    const downgraded = await authKeyUnchecked(victim.password, real.salt, oldFloor);
    expect(findSecrets(sentText(sentSince(from)), { masterPassword: victim.password, downgraded })).toEqual([]);
    await expectNothingOpened(page);
    expect(errors).toEqual([]);
  });

  it('attack 3: a wrapped vault key the server made under a password it chose is refused at sign-in, and nothing is encrypted under it', async () => {
    const { page, errors } = await freshDevice();
    const forged = await forgeProtectedKey('the attacker chose this one', real.salt, real.kdf);
    proxy.rewrite({
      method: 'POST',
      path: '/api/users/login',
      rewrite: (r) => {
        (r.body as { data: { protectedKey: string } }).data.protectedKey = forged;
      },
    });
    const from = proxy.recorded.length;

    await submitSignIn(page, victim.username, victim.password);
    await page.getByRole('alert').filter({ hasText: UNLOCK_REFUSED }).waitFor();

    await expect.poll(() => calls(from, 'POST', '/api/users/logout').length).toBe(1);
    await expectNothingOpened(page);
    // Nothing was ever encrypted under the planted key: no entry was written at all.
    expect(sentSince(from).filter((r) => r.path.startsWith('/api/passwords'))).toEqual([]);
    expect(findSecrets(sentText(sentSince(from)), { masterPassword: victim.password })).toEqual([]);
    expect(errors).toEqual([]);
  });
});
