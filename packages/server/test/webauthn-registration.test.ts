import { describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { signedInUser } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';
import { createSoftwareAuthenticator } from './helpers/software-authenticator';
import { APP_ORIGIN, AT_APP, FROM_APP, registerCredential, registerOptions } from './helpers/webauthn';

const h = useTestApp();

async function credentialRows(userId?: string) {
  let query = h.db.selectFrom('webauthn_credentials').selectAll();
  if (userId) query = query.where('user_id', '=', userId);
  return query.execute();
}

async function userIdOf(username: string): Promise<string> {
  const row = await h.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow();
  return row.id;
}

describe('POST /api/user/webauthn/register-options', () => {
  it('needs the current password: a wrong one is refused and stores no challenge', async () => {
    const { client } = await signedInUser(h);
    const other = await signedInUser(h, { password: 'someone else entirely' });
    const before = await h.db.selectFrom('webauthn_challenges').select('id').execute();
    const response = await registerOptions(client, other.account, true);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: 'Current password is incorrect.' });
    expect(await h.db.selectFrom('webauthn_challenges').select('id').execute()).toHaveLength(before.length);
  });

  it('asks a passkey to be discoverable and to verify its user; a security key neither', async () => {
    const { account, client } = await signedInUser(h);
    const passkey = (await registerOptions(client, account, true)).json().data.options;
    expect(passkey.rp).toEqual({ name: 'Lockit', id: 'localhost' });
    expect(passkey.user.name).toBe(account.username);
    expect(passkey.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    const key = (await registerOptions(client, account, false)).json().data.options;
    expect(key.authenticatorSelection).toMatchObject({ residentKey: 'discouraged', userVerification: 'preferred' });
  });

  it('uses PUBLIC_ORIGIN as the relying party when it is set', async () => {
    // A second app on the same database, configured with a public origin.
    const { buildApp } = await import('../src/app');
    const app = await buildApp({ ...h.config, publicOrigin: 'https://vault.example.com' }, { db: h.db, now: h.clock.now });
    try {
      const { account, client } = await signedInUser(h);
      const response = await app.inject({
        method: 'POST',
        url: apiPaths.webauthnRegisterOptions,
        headers: { 'x-lockit-client': 'web', origin: APP_ORIGIN },
        cookies: Object.fromEntries(client.jar),
        payload: { password: account.keys.authKey, passkey: true },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data.options.rp).toEqual({ name: 'Lockit', id: 'vault.example.com' });
    } finally {
      await app.close();
    }
  });
});

describe('POST /api/user/webauthn/register', () => {
  it('stores a verified credential, lists it, and gives recovery codes with the first factor only', async () => {
    const { account, client } = await signedInUser(h);
    const authenticator = createSoftwareAuthenticator();
    const first = await registerCredential(client, account, authenticator, { name: 'YubiKey 5' });
    expect(first.credential).toMatchObject({ name: 'YubiKey 5', canUnlock: false, backedUp: false, lastUsedAt: null });
    expect(first.recoveryCodes).toHaveLength(10);
    const second = await registerCredential(client, account, authenticator, { name: 'Phone' });
    expect(second.recoveryCodes).toBeUndefined();
    const rows = await credentialRows(await userIdOf(account.username));
    expect(rows.map((row) => [row.name, row.credential_id])).toEqual([
      ['YubiKey 5', first.held.id],
      ['Phone', second.held.id],
    ]);
  });

  it('excludes the credentials already registered, and refuses the same credential a second time', async () => {
    const { account, client } = await signedInUser(h);
    const authenticator = createSoftwareAuthenticator();
    const { held } = await registerCredential(client, account, authenticator);
    const begun = (await registerOptions(client, account, true)).json().data;
    expect(begun.options.excludeCredentials).toEqual([expect.objectContaining({ id: held.id, type: 'public-key' })]);
    const { response } = authenticator.register(begun.options, AT_APP, held);
    const again = await client.post(
      apiPaths.webauthnRegister,
      { challengeId: begun.challengeId, name: 'Again', response },
      FROM_APP,
    );
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'This security key or passkey is already registered.' });
    expect(await credentialRows(await userIdOf(account.username))).toHaveLength(1);
  });

  it('takes a challenge once: the same answer sent twice registers once', async () => {
    const { account, client } = await signedInUser(h);
    const authenticator = createSoftwareAuthenticator();
    const begun = (await registerOptions(client, account, false)).json().data;
    const { response } = authenticator.register(begun.options, AT_APP);
    const body = { challengeId: begun.challengeId, name: 'Key', response };
    const [one, two] = await Promise.all([
      client.post(apiPaths.webauthnRegister, body, FROM_APP),
      client.post(apiPaths.webauthnRegister, body, FROM_APP),
    ]);
    expect([one.statusCode, two.statusCode].sort()).toEqual([200, 400]);
    expect([one, two].find((r) => r.statusCode === 400)!.json()).toEqual({
      message: 'This request has expired or was already used. Start again.',
    });
    expect(await credentialRows(await userIdOf(account.username))).toHaveLength(1);
  });

  it("refuses another user's challenge and an expired one", async () => {
    const alice = await signedInUser(h);
    const bob = await signedInUser(h);
    const authenticator = createSoftwareAuthenticator();
    const begun = (await registerOptions(alice.client, alice.account, false)).json().data;
    const { response } = authenticator.register(begun.options, AT_APP);
    const asBob = await bob.client.post(
      apiPaths.webauthnRegister,
      { challengeId: begun.challengeId, name: 'K', response },
      FROM_APP,
    );
    expect(asBob.statusCode).toBe(400);

    const late = (await registerOptions(alice.client, alice.account, false)).json().data;
    h.clock.advance(5 * 60_000 + 1);
    const lateAnswer = authenticator.register(late.options, AT_APP).response;
    const expired = await alice.client.post(
      apiPaths.webauthnRegister,
      { challengeId: late.challengeId, name: 'K', response: lateAnswer },
      FROM_APP,
    );
    expect(expired.statusCode).toBe(400);
    expect(await credentialRows(await userIdOf(alice.account.username))).toHaveLength(0);
    expect(await credentialRows(await userIdOf(bob.account.username))).toHaveLength(0);
  });

  it.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['another RP ID', { origin: APP_ORIGIN, rpId: 'evil.example' }],
  ])('refuses an answer made for %s', async (_label, context) => {
    const { account, client } = await signedInUser(h);
    const begun = (await registerOptions(client, account, false)).json().data;
    const { response } = createSoftwareAuthenticator().register(begun.options, context);
    const answer = await client.post(
      apiPaths.webauthnRegister,
      { challengeId: begun.challengeId, name: 'K', response },
      FROM_APP,
    );
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ message: 'Your browser’s answer could not be verified. Try again.' });
    expect(await credentialRows(await userIdOf(account.username))).toHaveLength(0);
  });

  it('refuses a passkey whose authenticator did not verify its user, and accepts such a security key', async () => {
    const { account, client } = await signedInUser(h);
    const authenticator = createSoftwareAuthenticator();
    const asPasskey = (await registerOptions(client, account, true)).json().data;
    const unverified = authenticator.register(asPasskey.options, { ...AT_APP, userVerified: false }).response;
    const refused = await client.post(
      apiPaths.webauthnRegister,
      { challengeId: asPasskey.challengeId, name: 'K', response: unverified },
      FROM_APP,
    );
    expect(refused.statusCode).toBe(400);
    const asKey = (await registerOptions(client, account, false)).json().data;
    const keyAnswer = authenticator.register(asKey.options, { ...AT_APP, userVerified: false }).response;
    const accepted = await client.post(
      apiPaths.webauthnRegister,
      { challengeId: asKey.challengeId, name: 'K', response: keyAnswer },
      FROM_APP,
    );
    expect(accepted.statusCode).toBe(200);
  });
});

describe('relying party without PUBLIC_ORIGIN', () => {
  it('answers an IP-address origin with a 400 that says how to fix it', async () => {
    const { account, client } = await signedInUser(h);
    const response = await client.post(
      apiPaths.webauthnRegisterOptions,
      { password: account.keys.authKey, passkey: true },
      { headers: { host: '127.0.0.1', origin: 'http://127.0.0.1' } },
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'Passkeys need Lockit opened at a domain name, such as localhost or vault.example.com (see PUBLIC_ORIGIN).',
    });
  });

  it('refuses a passkey request that names no Origin (the relying party cannot be known)', async () => {
    const response = await h.client().post(apiPaths.passkeyOptions, {});
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message:
        'Passkeys need the request to come from the page Lockit was opened at (its Origin header was missing or did not match).',
    });
  });
});

describe('rename, unlock key, remove', () => {
  const patch = (client: Awaited<ReturnType<typeof signedInUser>>['client'], id: string, body: unknown) =>
    client.request('PATCH', apiPaths.webauthnCredential(id), { body });

  it("renames one's own credential; another user's is not found and keeps its name", async () => {
    const alice = await signedInUser(h);
    const bob = await signedInUser(h);
    const { credential } = await registerCredential(alice.client, alice.account, createSoftwareAuthenticator(), { name: 'Old' });
    expect((await patch(alice.client, credential.id, { name: '  New name ' })).json()).toEqual({ message: 'Renamed' });
    const byBob = await patch(bob.client, credential.id, { name: 'Stolen' });
    expect(byBob.statusCode).toBe(404);
    const rows = await credentialRows(await userIdOf(alice.account.username));
    expect(rows.map((row) => row.name)).toEqual(['New name']);
    expect((await patch(alice.client, credential.id, { name: '' })).statusCode).toBe(400);
  });

  it("stores an unlock key only on the caller's own credential", async () => {
    const alice = await signedInUser(h);
    const bob = await signedInUser(h);
    const { credential } = await registerCredential(alice.client, alice.account, createSoftwareAuthenticator());
    const unlock = { unlockKey: `v1.${'A'.repeat(16)}.${'B'.repeat(64)}`, unlockSalt: 'S'.repeat(43) };
    const byBob = await bob.client.put(apiPaths.webauthnUnlockKey(credential.id), unlock);
    expect(byBob.statusCode).toBe(404);
    expect((await credentialRows(await userIdOf(alice.account.username)))[0]!.unlock_key).toBeNull();
    const byAlice = await alice.client.put(apiPaths.webauthnUnlockKey(credential.id), unlock);
    expect(byAlice.statusCode, byAlice.body).toBe(200);
    const [row] = await credentialRows(await userIdOf(alice.account.username));
    expect([row!.unlock_key, row!.unlock_salt]).toEqual([unlock.unlockKey, unlock.unlockSalt]);
  });

  it('removes a credential with its unlock key only with the current password', async () => {
    const { account, client } = await signedInUser(h);
    const { credential } = await registerCredential(client, account, createSoftwareAuthenticator());
    const other = await signedInUser(h, { password: 'someone else entirely' });
    const wrong = await client.post(apiPaths.webauthnRemove(credential.id), { password: other.account.keys.authKey });
    expect(wrong.statusCode).toBe(403);
    expect(await credentialRows(await userIdOf(account.username))).toHaveLength(1);
    const byOther = await other.client.post(apiPaths.webauthnRemove(credential.id), { password: other.account.keys.authKey });
    expect(byOther.statusCode).toBe(404);
    const removed = await client.post(apiPaths.webauthnRemove(credential.id), { password: account.keys.authKey });
    expect(removed.json()).toEqual({ message: 'Security key removed' });
    expect(await credentialRows(await userIdOf(account.username))).toHaveLength(0);
  });

  it('removing the last factor deletes the recovery codes; removing one of two keeps them', async () => {
    const { account, client } = await signedInUser(h);
    const authenticator = createSoftwareAuthenticator();
    const first = await registerCredential(client, account, authenticator);
    const second = await registerCredential(client, account, authenticator);
    const userId = await userIdOf(account.username);
    const codes = () => h.db.selectFrom('recovery_codes').select('id').where('user_id', '=', userId).execute();
    expect(await codes()).toHaveLength(10);
    await client.post(apiPaths.webauthnRemove(first.credential.id), { password: account.keys.authKey });
    expect(await codes()).toHaveLength(10);
    await client.post(apiPaths.webauthnRemove(second.credential.id), { password: account.keys.authKey });
    expect(await codes()).toHaveLength(0);
  });

  it('raises the two-factor epoch on adding and on removing', async () => {
    const { account, client } = await signedInUser(h);
    const userId = await userIdOf(account.username);
    const epoch = async () =>
      (await h.db.selectFrom('users').select('two_factor_epoch').where('id', '=', userId).executeTakeFirstOrThrow())
        .two_factor_epoch;
    const start = await epoch();
    const { credential } = await registerCredential(client, account, createSoftwareAuthenticator());
    const added = await epoch();
    expect(added).toBeGreaterThan(start);
    await client.post(apiPaths.webauthnRemove(credential.id), { password: account.keys.authKey });
    expect(await epoch()).toBeGreaterThan(added);
  });
});
