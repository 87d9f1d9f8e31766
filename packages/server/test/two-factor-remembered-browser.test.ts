import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { apiPaths } from '@lockit/contract';
import { login, signedInUser } from './helpers/accounts';
import type { InjectClient } from './helpers/inject-client';
import { useTestApp, type TestHarness } from './helpers/test-app';
import { enableTotp, passwordStep, secondFactor, totpCodeAt, toNextMidStep } from './helpers/two-factor';
import { REMEMBER_COOKIE } from '../src/auth/two-factor/remember-cookie';

const h = useTestApp({ config: { rememberBrowserDays: 30 } });
const off = useTestApp({ config: { rememberBrowserDays: 0 } });
const DAY = 24 * 60 * 60 * 1000;

function rememberLines(response: LightMyRequestResponse): string[] {
  const header = response.headers['set-cookie'];
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [header];
  return lines.filter((line) => line.startsWith(`${REMEMBER_COOKIE}=`));
}

/** An account with TOTP, and a new browser that passed the second step with "remember". */
async function rememberedBrowser(app: TestHarness = h) {
  const { account, client } = await signedInUser(app);
  const { secret } = await enableTotp(app, client, account);
  const browser = app.client();
  const token = await passwordStep(browser, account);
  const done = await secondFactor(browser, { token, method: 'totp', code: totpCodeAt(secret, app.clock.now()), remember: true });
  expect(done.statusCode).toBe(200);
  toNextMidStep(app);
  return { account, client, browser, done, secret };
}

function signsInDirectly(response: LightMyRequestResponse): boolean {
  return response.statusCode === 200 && typeof response.json().data.protectedKey === 'string';
}

describe('remember this browser', () => {
  it('sets an HttpOnly, SameSite=Strict cookie sent to the sign-in call only, for the configured days', async () => {
    const { done } = await rememberedBrowser();
    const [line] = rememberLines(done);
    expect(line).toBeDefined();
    expect(line).toMatch(/; HttpOnly/);
    expect(line).toMatch(/; SameSite=Strict/);
    expect(line).toContain(`; Path=${apiPaths.login}`);
    expect(line).toContain(`; Max-Age=${30 * 24 * 60 * 60}`);
  });

  it('skips the second step on the next sign-in, but never the password', async () => {
    const { account, browser } = await rememberedBrowser();
    expect(signsInDirectly(await login(browser, account))).toBe(true);
    const wrong = await browser.post(apiPaths.login, { username: account.username, password: 'A'.repeat(43) });
    expect(wrong.statusCode).toBe(401);
  });

  it('is not set without "remember"', async () => {
    const { account, client } = await signedInUser(h);
    const { secret } = await enableTotp(h, client, account);
    const browser = h.client();
    const done = await secondFactor(browser, {
      token: await passwordStep(browser, account),
      method: 'totp',
      code: totpCodeAt(secret, h.clock.now()),
    });
    expect(rememberLines(done)).toEqual([]);
  });

  it('expires after the configured days', async () => {
    const { account, browser } = await rememberedBrowser();
    h.clock.advance(29 * DAY);
    expect(signsInDirectly(await login(browser, account))).toBe(true);
    h.clock.advance(DAY + 1000);
    await passwordStep(browser, account);
  });

  it('is forgotten when the owner forgets browsers', async () => {
    const { account, client, browser } = await rememberedBrowser();
    expect((await client.post(apiPaths.forgetBrowsers)).statusCode).toBe(200);
    await passwordStep(browser, account);
  });

  it('is forgotten when new recovery codes are made', async () => {
    const { account, client, browser } = await rememberedBrowser();
    expect((await client.post(apiPaths.recoveryCodes, { password: account.keys.authKey })).statusCode).toBe(200);
    await passwordStep(browser, account);
  });

  it('is forgotten when the factors change (TOTP off and on again)', async () => {
    const { account, client, browser } = await rememberedBrowser();
    expect((await client.post(apiPaths.totpDisable, { password: account.keys.authKey })).statusCode).toBe(200);
    await enableTotp(h, client, account);
    await passwordStep(browser, account);
  });

  it('is useless to another account', async () => {
    const { browser } = await rememberedBrowser();
    const { account: other, client: otherOwner } = await signedInUser(h);
    await enableTotp(h, otherOwner, other);
    const thief: InjectClient = h.client();
    thief.jar.set(REMEMBER_COOKIE, browser.jar.get(REMEMBER_COOKIE)!);
    await passwordStep(thief, other);
  });

  it('is refused when tampered with', async () => {
    const { account, browser } = await rememberedBrowser();
    const value = browser.jar.get(REMEMBER_COOKIE)!;
    const parts = value.split('.');
    parts[3] = (Date.now() + 3650 * DAY).toString(36);
    browser.jar.set(REMEMBER_COOKIE, parts.join('.'));
    await passwordStep(browser, account);
  });

  it('is not set when the operator turned it off (REMEMBER_BROWSER_DAYS=0)', async () => {
    const { account, browser, done } = await rememberedBrowser(off);
    expect(rememberLines(done)).toEqual([]);
    await passwordStep(browser, account);
  });

  it('tells browsers its days in the public config, 0 when off, so the choice is offered only when it works', async () => {
    expect((await h.client().get(apiPaths.publicConfig)).json().data.rememberBrowserDays).toBe(30);
    expect((await off.client().get(apiPaths.publicConfig)).json().data.rememberBrowserDays).toBe(0);
  });
});
