import { describe, expect, it } from 'vitest';
import { apiPaths, secondFactorRequiredSchema } from '@lockit/contract';
import { login, signedInUser, type TestAccount } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';
import type { InjectClient } from './helpers/inject-client';
import { createSoftwareAuthenticator, type SoftwareAuthenticator } from './helpers/software-authenticator';
import { AT_APP, FROM_APP, registerCredential } from './helpers/webauthn';

const h = useTestApp();

/** An account with one security key, and a fresh browser at the second-factor step. */
async function atSecondFactor() {
  const { account, client } = await signedInUser(h);
  const authenticator = createSoftwareAuthenticator();
  const registered = await registerCredential(client, account, authenticator, { passkey: false });
  const browser = h.client();
  const token = await pendingToken(browser, account);
  return { account, authenticator, registered, browser, token };
}

async function pendingToken(browser: InjectClient, account: TestAccount): Promise<string> {
  const answer = await login(browser, account);
  expect(answer.statusCode).toBe(200);
  const { secondFactor } = secondFactorRequiredSchema.parse(answer.json()).data;
  expect(secondFactor.methods).toContain('webauthn');
  return secondFactor.token;
}

async function keyOptions(browser: InjectClient, token: string) {
  const answer = await browser.post(apiPaths.loginWebauthnOptions, { token }, FROM_APP);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json().data.options;
}

async function answerWithKey(browser: InjectClient, authenticator: SoftwareAuthenticator, token: string) {
  const options = await keyOptions(browser, token);
  const response = authenticator.assert(options, AT_APP);
  return { response, answer: await browser.post(apiPaths.loginWebauthn, { token, response }, FROM_APP) };
}

const FAILED = { message: 'That security key could not be verified. Try again or use another way to sign in.' };

describe('security key as the second factor', () => {
  it("completes a pending sign-in with the account's key: the spec's login data and a session", async () => {
    const { account, authenticator, registered, browser, token } = await atSecondFactor();
    const options = await keyOptions(browser, token);
    expect(options.allowCredentials).toEqual([expect.objectContaining({ id: registered.held.id })]);
    const response = authenticator.assert(options, AT_APP);
    const answer = await browser.post(apiPaths.loginWebauthn, { token, response }, FROM_APP);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      message: 'Login successful',
      data: {
        username: account.username,
        email: account.email,
        protectedKey: account.protectedKey,
        keyGeneration: 0,
        keyEpoch: 0,
        // The account id, which its passkeys carry as their user handle.
        userId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
    });
    expect((await browser.post(apiPaths.verifySession)).statusCode).toBe(200);
    const row = await h.db
      .selectFrom('webauthn_credentials')
      .select(['counter', 'last_used_at'])
      .where('credential_id', '=', registered.held.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.counter)).toBe(1);
    expect(row.last_used_at).not.toBeNull();
  });

  it('takes its challenge once: the same answer replayed opens nothing', async () => {
    const { authenticator, browser, token } = await atSecondFactor();
    const { response, answer } = await answerWithKey(browser, authenticator, token);
    expect(answer.statusCode).toBe(200);
    const replay = await h.client().post(apiPaths.loginWebauthn, { token, response }, FROM_APP);
    // The pending sign-in it completed is gone: the replay meets "sign in again".
    expect(replay.statusCode).toBe(410);
  });

  it('refuses a signature counter that goes backwards, and counts the failure', async () => {
    const { account, authenticator, registered, browser, token } = await atSecondFactor();
    expect((await answerWithKey(browser, authenticator, token)).answer.statusCode).toBe(200);
    // A cloned key: its counter is behind the one the server has seen.
    registered.held.counter = 0;
    const other = h.client();
    const next = await pendingToken(other, account);
    const { answer } = await answerWithKey(other, authenticator, next);
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toEqual(FAILED);
    const failures = await h.db
      .selectFrom('pending_sign_ins')
      .innerJoin('users', 'users.id', 'pending_sign_ins.user_id')
      .select('pending_sign_ins.failures')
      .where('users.username', '=', account.username)
      .execute();
    expect(failures.map((row) => row.failures)).toEqual([1]);
    expect((await other.post(apiPaths.verifySession)).statusCode).toBe(401);
  });

  it("does not let another account's key complete someone else's pending sign-in", async () => {
    const victim = await atSecondFactor();
    const attacker = await signedInUser(h);
    const attackerKey = createSoftwareAuthenticator();
    const { held } = await registerCredential(attacker.client, attacker.account, attackerKey, { passkey: false });
    const options = await keyOptions(victim.browser, victim.token);
    const response = attackerKey.assert(options, AT_APP, held);
    const answer = await victim.browser.post(apiPaths.loginWebauthn, { token: victim.token, response }, FROM_APP);
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toEqual(FAILED);
    expect((await victim.browser.post(apiPaths.verifySession)).statusCode).toBe(401);
  });

  it.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['another RP ID', { origin: 'http://localhost', rpId: 'evil.example' }],
  ])('refuses an answer made for %s', async (_label, context) => {
    const { authenticator, browser, token } = await atSecondFactor();
    const options = await keyOptions(browser, token);
    const response = authenticator.assert(options, context);
    const answer = await browser.post(apiPaths.loginWebauthn, { token, response }, FROM_APP);
    expect(answer.statusCode).toBe(401);
    expect((await browser.post(apiPaths.verifySession)).statusCode).toBe(401);
  });

  it('answers an unknown or expired token 410 "sign in again"', async () => {
    const { browser, token } = await atSecondFactor();
    h.clock.advance(5 * 60_000 + 1);
    const answer = await browser.post(apiPaths.loginWebauthnOptions, { token }, FROM_APP);
    expect(answer.statusCode).toBe(410);
    expect(answer.json()).toEqual({ message: 'This sign-in has expired. Sign in again.' });
  });
});
