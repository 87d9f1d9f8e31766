import { describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { apiPaths, passkeySignInResponseSchema } from '@lockit/contract';
import { login, signedInUser, type TestAccount } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';
import type { InjectClient } from './helpers/inject-client';
import { createSoftwareAuthenticator } from './helpers/software-authenticator';
import { AT_APP, FROM_APP, passkeySignIn, registerCredential } from './helpers/webauthn';

const h = useTestApp();

const FAILED = { message: 'That passkey could not be verified. Try again or sign in with your master password.' };
const UNLOCK = { unlockKey: `v1.${'A'.repeat(16)}.${'B'.repeat(64)}`, unlockSalt: 'S'.repeat(43) };

async function turnOnTotp(client: InjectClient, account: TestAccount): Promise<void> {
  const setup = await client.post(apiPaths.totpSetup, { password: account.keys.authKey });
  expect(setup.statusCode, setup.body).toBe(200);
  const code = new TOTP({ secret: Secret.fromBase32(setup.json().data.secret) }).generate({ timestamp: h.clock.now() });
  expect((await client.post(apiPaths.totpConfirm, { code })).statusCode).toBe(200);
}

/** An account with a passkey holding an unlock key. */
async function withPasskey() {
  const { account, client } = await signedInUser(h);
  const authenticator = createSoftwareAuthenticator();
  const registered = await registerCredential(client, account, authenticator, { passkey: true, name: 'Phone' });
  expect((await client.put(apiPaths.webauthnUnlockKey(registered.credential.id), UNLOCK)).statusCode).toBe(200);
  return { account, client, authenticator, ...registered };
}

describe('passkey sign-in', () => {
  it('offers a discoverable challenge that names no account and requires user verification', async () => {
    const answer = await h.client().post(apiPaths.passkeyOptions, {}, FROM_APP);
    expect(answer.statusCode).toBe(200);
    const { options } = answer.json().data;
    expect(options.allowCredentials).toBeUndefined();
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
  });

  it('signs in with the passkey alone, returns its unlock key, and asks for no TOTP', async () => {
    const { account, client, authenticator, held, credential } = await withPasskey();
    await turnOnTotp(client, account);
    // With TOTP on, the master password alone only reaches the second-factor step.
    expect((await login(h.client(), account)).json().data.secondFactor).toBeDefined();

    const browser = h.client();
    const { answer } = await passkeySignIn(browser, authenticator, held);
    expect(answer.statusCode, answer.body).toBe(200);
    const data = passkeySignInResponseSchema.parse(answer.json()).data;
    const user = await h.db.selectFrom('users').select('id').where('username', '=', account.username).executeTakeFirstOrThrow();
    expect(data).toEqual({
      username: account.username,
      email: account.email,
      userId: user.id,
      credentialId: held.id,
      unlockKey: UNLOCK.unlockKey,
      unlockSalt: UNLOCK.unlockSalt,
    });
    expect((await browser.post(apiPaths.verifySession)).statusCode).toBe(200);
    const row = await h.db
      .selectFrom('webauthn_credentials')
      .select('last_used_at')
      .where('id', '=', credential.id)
      .executeTakeFirstOrThrow();
    expect(row.last_used_at).not.toBeNull();
  });

  it('answers null unlock data for a passkey registered without PRF', async () => {
    const { account, client } = await signedInUser(h);
    const authenticator = createSoftwareAuthenticator();
    const { held } = await registerCredential(client, account, authenticator, { passkey: true });
    const { answer } = await passkeySignIn(h.client(), authenticator, held);
    expect(answer.json().data).toMatchObject({ unlockKey: null, unlockSalt: null });
  });

  it('takes a challenge once: the same answer replayed opens nothing', async () => {
    const { authenticator, held } = await withPasskey();
    const { challengeId, response, answer } = await passkeySignIn(h.client(), authenticator, held);
    expect(answer.statusCode).toBe(200);
    const replay = h.client();
    expect((await replay.post(apiPaths.passkeySignIn, { challengeId, response }, FROM_APP)).statusCode).toBe(401);
    expect((await replay.post(apiPaths.verifySession)).statusCode).toBe(401);
  });

  it('refuses an answer without user verification, for another origin or RP ID, with one message', async () => {
    const { authenticator, held } = await withPasskey();
    for (const context of [
      { ...AT_APP, userVerified: false },
      { origin: 'https://evil.example' },
      { origin: 'http://localhost', rpId: 'evil.example' },
    ]) {
      const browser = h.client();
      const { answer } = await passkeySignIn(browser, authenticator, held, context);
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toEqual(FAILED);
      expect((await browser.post(apiPaths.verifySession)).statusCode).toBe(401);
    }
  });

  it('answers an unknown credential exactly as a failed check', async () => {
    const stranger = createSoftwareAuthenticator();
    const { credential: unknown } = stranger.register({ challenge: 'x', user: { id: 'dXNlcg' } }, AT_APP);
    const { answer } = await passkeySignIn(h.client(), stranger, unknown);
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toEqual(FAILED);
  });

  it('never signs in with a security key added as a second step, even one that answers the challenge', async () => {
    const { account, client } = await signedInUser(h);
    const authenticator = createSoftwareAuthenticator();
    const { held } = await registerCredential(client, account, authenticator, { passkey: false });
    const { answer } = await passkeySignIn(h.client(), authenticator, held);
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toEqual(FAILED);
  });

  it('refuses a disabled account after a valid passkey', async () => {
    const { account, authenticator, held } = await withPasskey();
    await h.db.updateTable('users').set({ disabled_at: h.clock.now() }).where('username', '=', account.username).execute();
    const browser = h.client();
    const { answer } = await passkeySignIn(browser, authenticator, held);
    expect(answer.statusCode).toBe(403);
    expect((await browser.post(apiPaths.verifySession)).statusCode).toBe(401);
  });

  it('no longer signs in once the passkey is removed', async () => {
    const { account, client, authenticator, held, credential } = await withPasskey();
    await client.post(apiPaths.webauthnRemove(credential.id), { password: account.keys.authKey });
    const { answer } = await passkeySignIn(h.client(), authenticator, held);
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toEqual(FAILED);
  });
});
