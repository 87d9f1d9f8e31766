import { describe, expect, it } from 'vitest';
import { apiPaths, unverifiedResponseSchema } from '@lockit/contract';
import { login, signedInUser, type TestAccount } from './helpers/accounts';
import type { InjectClient } from './helpers/inject-client';
import { parseExposition, valueOf } from './helpers/prometheus-text';
import { useTestApp } from './helpers/test-app';
import { enableTotp, passwordStep, secondFactor, totpCodeAt } from './helpers/two-factor';
import { createSoftwareAuthenticator } from './helpers/software-authenticator';
import { AT_APP, FROM_APP, passkeySignIn, registerCredential } from './helpers/webauthn';

/**
 * One sign-in policy for the four ways to prove who one is: the master password, a passkey
 * alone, and the two second steps (TOTP or recovery code, security key). An unverified and a
 * disabled account get the very same refusal on each, and each refusal is counted in
 * lockit_sign_in_failures_total. The account is changed after its proof is ready (between
 * the password and the second step for those paths), as an operator or a cleanup would.
 */
const h = useTestApp();

type State = 'unverified' | 'disabled';

async function setState(account: TestAccount, state: State): Promise<void> {
  const change = state === 'disabled' ? { disabled_at: h.clock.now() } : { verified_at: null };
  await h.db.updateTable('users').set(change).where('username', '=', account.username).execute();
}

async function failures(reason: State): Promise<number> {
  const response = await h.app.inject({ method: 'GET', url: '/metrics' });
  return valueOf(parseExposition(response.body), 'lockit_sign_in_failures_total', { reason }) ?? 0;
}

/** Each path: sets the account up, brings it to its proof, lets `state` happen, then answers the proof. */
const paths: Record<string, (state: State) => Promise<{ statusCode: number; body: unknown; browser: InjectClient }>> = {
  async password(state) {
    const { account } = await signedInUser(h);
    await setState(account, state);
    const browser = h.client();
    const answer = await login(browser, account);
    return { statusCode: answer.statusCode, body: answer.json(), browser };
  },
  async passkey(state) {
    const { account, client } = await signedInUser(h);
    const authenticator = createSoftwareAuthenticator();
    const { held } = await registerCredential(client, account, authenticator, { passkey: true });
    await setState(account, state);
    const browser = h.client();
    const { answer } = await passkeySignIn(browser, authenticator, held);
    return { statusCode: answer.statusCode, body: answer.json(), browser };
  },
  async securityKey(state) {
    const { account, client } = await signedInUser(h);
    const authenticator = createSoftwareAuthenticator();
    await registerCredential(client, account, authenticator, { passkey: false });
    const browser = h.client();
    const token = await passwordStep(browser, account);
    const options = (await browser.post(apiPaths.loginWebauthnOptions, { token }, FROM_APP)).json().data.options;
    await setState(account, state);
    const response = authenticator.assert(options, AT_APP);
    const answer = await browser.post(apiPaths.loginWebauthn, { token, response }, FROM_APP);
    return { statusCode: answer.statusCode, body: answer.json(), browser };
  },
  async totpSecondStep(state) {
    const { account, client } = await signedInUser(h);
    const { secret } = await enableTotp(h, client, account);
    const browser = h.client();
    const token = await passwordStep(browser, account);
    await setState(account, state);
    const answer = await secondFactor(browser, { token, method: 'totp', code: totpCodeAt(secret, h.clock.now()) });
    return { statusCode: answer.statusCode, body: answer.json(), browser };
  },
};

describe.each(['unverified', 'disabled'] as const)('the sign-in policy for a %s account', (state) => {
  const answers = new Map<string, { statusCode: number; body: unknown }>();

  it.each(Object.keys(paths))('refuses the %s path with 403, opens no session and counts the refusal', async (name) => {
    const before = await failures(state);
    const { statusCode, body, browser } = await paths[name]!(state);
    expect(statusCode, JSON.stringify(body)).toBe(403);
    expect(await failures(state)).toBe(before + 1);
    expect((await browser.post(apiPaths.verifySession)).statusCode).toBe(401);
    answers.set(name, { statusCode, body });
  });

  it('gives the same answer on every path (names and e-mails aside)', () => {
    expect([...answers.keys()].sort()).toEqual(Object.keys(paths).sort());
    const shapes = [...answers.values()].map(({ body }) => {
      const { message, data } = body as { message: string; data?: Record<string, unknown> };
      return { message, data: data && Object.keys(data).sort() };
    });
    for (const shape of shapes) expect(shape).toEqual(shapes[0]);
    if (state === 'unverified') {
      for (const { body } of answers.values()) expect(() => unverifiedResponseSchema.parse(body)).not.toThrow();
      expect(shapes[0]!.message).toBe('Please verify your email before signing in.');
    } else {
      expect(shapes[0]).toEqual({ message: "This account is disabled. Contact the server's operator.", data: undefined });
    }
  });
});

describe('a lockout on a second step', () => {
  async function rateLimited(): Promise<number> {
    const response = await h.app.inject({ method: 'GET', url: '/metrics' });
    return valueOf(parseExposition(response.body), 'lockit_sign_in_failures_total', { reason: 'rate_limited' }) ?? 0;
  }

  it('is counted as rate_limited, like a lockout of the password or passkey step', async () => {
    const { account, client } = await signedInUser(h);
    const { secret } = await enableTotp(h, client, account);
    const authenticator = createSoftwareAuthenticator();
    await registerCredential(client, account, authenticator, { passkey: false });
    const browser = h.client('10.40.0.1');
    const wrong = totpCodeAt(secret, h.clock.now()) === '000000' ? '111111' : '000000';
    const token = await passwordStep(browser, account);
    for (let i = 0; i < 5; i += 1) await secondFactor(browser, { token, method: 'totp', code: wrong });

    const before = await rateLimited();
    const again = await passwordStep(browser, account);
    expect((await secondFactor(browser, { token: again, method: 'totp', code: wrong })).statusCode).toBe(429);
    const options = (await browser.post(apiPaths.loginWebauthnOptions, { token: again }, FROM_APP)).json().data.options;
    const response = authenticator.assert(options, AT_APP);
    expect((await browser.post(apiPaths.loginWebauthn, { token: again, response }, FROM_APP)).statusCode).toBe(429);
    expect(await rateLimited()).toBe(before + 2);
  });
});
