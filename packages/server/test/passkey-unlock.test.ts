import { describe, expect, it } from 'vitest';
import { apiPaths, keyMaterialResponseSchema, passkeyUnlockResponseSchema } from '@lockit/contract';
import { signedInUser } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';
import type { InjectClient } from './helpers/inject-client';
import {
  createSoftwareAuthenticator,
  type CeremonyContext,
  type SoftwareAuthenticator,
  type SoftwareCredential,
} from './helpers/software-authenticator';
import { AT_APP, FROM_APP, registerCredential } from './helpers/webauthn';

const h = useTestApp();

const FAILED = { message: 'That passkey could not be verified for this account. Try again or enter your master password.' };
const CANNOT = { message: 'This passkey cannot unlock your vault. Enter your master password.' };
const EXPIRED = { message: 'This request has expired or was already used. Start again.' };
const unlockOf = (tag: string) => ({ unlockKey: `v1.${'A'.repeat(16)}.${tag.repeat(64)}`, unlockSalt: 'S'.repeat(43) });

/** A signed-in account with a passkey; with `unlock`, the passkey holds that unlock key. */
async function withPasskey(unlock: { unlockKey: string; unlockSalt: string } | null = unlockOf('B')) {
  const { account, client } = await signedInUser(h);
  const authenticator = createSoftwareAuthenticator();
  const registered = await registerCredential(client, account, authenticator, { passkey: true, name: 'Phone' });
  if (unlock) expect((await client.put(apiPaths.webauthnUnlockKey(registered.credential.id), unlock)).statusCode).toBe(200);
  return { account, client, authenticator, ...registered };
}

async function unlockOptions(client: InjectClient) {
  const answer = await client.post(apiPaths.passkeyUnlockOptions, {}, FROM_APP);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json().data as { challengeId: string; options: { challenge: string; allowCredentials?: Array<{ id: string }> } };
}

/** Asks for an unlock challenge from `client` and answers it with `held`. */
async function unlockWith(
  client: InjectClient,
  authenticator: SoftwareAuthenticator,
  held: SoftwareCredential,
  context: CeremonyContext = AT_APP,
) {
  const { challengeId, options } = await unlockOptions(client);
  const response = authenticator.assert(options, context, held);
  return { challengeId, response, answer: await client.post(apiPaths.passkeyUnlock, { challengeId, response }, FROM_APP) };
}

const credentialRow = (id: string) =>
  h.db.selectFrom('webauthn_credentials').select(['counter', 'last_used_at']).where('id', '=', id).executeTakeFirstOrThrow();

describe('unlock with a passkey', () => {
  it('says in key-material whether a passkey can unlock', async () => {
    const plain = await signedInUser(h);
    const material = async (client: InjectClient) =>
      keyMaterialResponseSchema.parse((await client.get(apiPaths.keyMaterial)).json()).data.passkeyUnlock;
    expect(await material(plain.client)).toBe(false);
    const withoutKey = await withPasskey(null);
    expect(await material(withoutKey.client)).toBe(false);
    const { client } = await withPasskey();
    expect(await material(client)).toBe(true);
  });

  it("offers a challenge for the session's own passkeys that hold an unlock key, with user verification", async () => {
    const { account, client, authenticator, held } = await withPasskey();
    // A second passkey without an unlock key (no PRF) is not offered.
    await registerCredential(client, account, authenticator, { passkey: true, name: 'Old key' });
    const { options } = await unlockOptions(client);
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(options.allowCredentials?.map((allowed) => allowed.id)).toEqual([held.id]);
  });

  it('refuses options to an account without a passkey that can unlock, and to no session', async () => {
    const { client } = await withPasskey(null);
    const answer = await client.post(apiPaths.passkeyUnlockOptions, {}, FROM_APP);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({
      message: 'This account has no passkey that can unlock the vault. Enter your master password.',
    });
    expect((await h.client().post(apiPaths.passkeyUnlockOptions, {}, FROM_APP)).statusCode).toBe(401);
    expect((await h.client().post(apiPaths.passkeyUnlock, {}, FROM_APP)).statusCode).toBe(401);
  });

  it('answers the unlock key of the credential used, and records its use', async () => {
    const { client, authenticator, held, credential } = await withPasskey();
    const { answer } = await unlockWith(client, authenticator, held);
    expect(answer.statusCode, answer.body).toBe(200);
    const user = await h.db
      .selectFrom('webauthn_credentials')
      .select('user_id')
      .where('id', '=', credential.id)
      .executeTakeFirstOrThrow();
    expect(passkeyUnlockResponseSchema.parse(answer.json()).data).toEqual({
      userId: user.user_id,
      credentialId: held.id,
      ...unlockOf('B'),
    });
    const row = await credentialRow(credential.id);
    expect(Number(row.counter)).toBe(held.counter);
    expect(row.last_used_at).not.toBeNull();
    // The session is as it was: still signed in, no new cookie.
    expect(answer.cookies).toEqual([]);
    expect((await client.post(apiPaths.verifySession)).statusCode).toBe(200);
  });

  it('takes a challenge once: a replayed answer, or an unknown challenge, gets 400 and changes nothing', async () => {
    const { client, authenticator, held, credential } = await withPasskey();
    const { challengeId, response, answer } = await unlockWith(client, authenticator, held);
    expect(answer.statusCode).toBe(200);
    const before = await credentialRow(credential.id);
    const replay = await client.post(apiPaths.passkeyUnlock, { challengeId, response }, FROM_APP);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual(EXPIRED);
    const unknown = await client.post(apiPaths.passkeyUnlock, { challengeId: crypto.randomUUID(), response }, FROM_APP);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual(EXPIRED);
    expect(await credentialRow(credential.id)).toEqual(before);
  });

  it("refuses another account's credential, and another account's challenge, changing nothing", async () => {
    const victim = await withPasskey();
    const other = await withPasskey(unlockOf('C'));
    // The other account's valid passkey answers this session's challenge.
    const { challengeId, options } = await unlockOptions(victim.client);
    const foreign = other.authenticator.assert(options, AT_APP, other.held);
    const answer = await victim.client.post(apiPaths.passkeyUnlock, { challengeId, response: foreign }, FROM_APP);
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toEqual(FAILED);
    expect((await credentialRow(other.credential.id)).last_used_at).toBeNull();

    // This session's passkey answering a challenge made for the other session: no such challenge here.
    const theirs = await unlockOptions(other.client);
    const mine = victim.authenticator.assert(theirs.options, AT_APP, victim.held);
    const crossed = await victim.client.post(
      apiPaths.passkeyUnlock,
      { challengeId: theirs.challengeId, response: mine },
      FROM_APP,
    );
    expect(crossed.statusCode).toBe(400);
    expect((await credentialRow(victim.credential.id)).last_used_at).toBeNull();
  });

  it('refuses its own passkey without an unlock key, and a security key, in plain words', async () => {
    const { account, client, authenticator } = await withPasskey();
    const noPrf = await registerCredential(client, account, authenticator, { passkey: true, name: 'No PRF' });
    const desk = await registerCredential(client, account, authenticator, { passkey: false, name: 'Desk key' });
    // A security key holding an unlock key (not something the web app makes) still never unlocks.
    expect((await client.put(apiPaths.webauthnUnlockKey(desk.credential.id), unlockOf('D'))).statusCode).toBe(200);
    for (const held of [noPrf.held, desk.held]) {
      const { challengeId, options } = await unlockOptions(client);
      const response = authenticator.assert(options, AT_APP, held);
      const answer = await client.post(apiPaths.passkeyUnlock, { challengeId, response }, FROM_APP);
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual(CANNOT);
    }
    expect((await credentialRow(noPrf.credential.id)).last_used_at).toBeNull();
    expect((await credentialRow(desk.credential.id)).last_used_at).toBeNull();
  });

  it('refuses an answer without user verification, for another origin or RP ID, or with a counter gone back', async () => {
    const { client, authenticator, held, credential } = await withPasskey();
    for (const context of [
      { ...AT_APP, userVerified: false },
      { origin: 'https://evil.example' },
      { origin: 'http://localhost', rpId: 'evil.example' },
    ]) {
      const { answer } = await unlockWith(client, authenticator, held, context);
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toEqual(FAILED);
    }
    expect((await credentialRow(credential.id)).last_used_at).toBeNull();
    expect((await unlockWith(client, authenticator, held)).answer.statusCode).toBe(200);
    held.counter -= 2;
    const { answer } = await unlockWith(client, authenticator, held);
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toEqual(FAILED);
  });

  it('refuses a body that is no passkey answer, by schema, with a message', async () => {
    const { client } = await withPasskey();
    const { challengeId } = await unlockOptions(client);
    for (const body of [{}, { challengeId: 'nope', response: {} }, { challengeId, response: { id: 'x' } }]) {
      const answer = await client.post(apiPaths.passkeyUnlock, body, FROM_APP);
      expect(answer.statusCode).toBe(400);
      expect(typeof answer.json().message).toBe('string');
    }
  });
});

describe('an unlock key and the key epoch', () => {
  const keyEpochOf = async (username: string) =>
    Number(
      (await h.db.selectFrom('users').select('key_epoch').where('username', '=', username).executeTakeFirstOrThrow()).key_epoch,
    );

  it('key-material names the key epoch of the vault key, 0 for an account that never rotated', async () => {
    const { client, account } = await withPasskey();
    const material = keyMaterialResponseSchema.parse((await client.get(apiPaths.keyMaterial)).json()).data;
    expect(material.keyEpoch).toBe(0);
    expect(await keyEpochOf(account.username)).toBe(0);
  });

  it('is stored only while the vault key is of the epoch it names: a wrap of a key rotated away meanwhile gets 409 and nothing', async () => {
    const { client, account, credential } = await withPasskey(null);
    // A rotation committed after this browser read the key (the commit raised the epoch and cleared every unlock key).
    await h.db.updateTable('users').set({ key_epoch: 1 }).where('username', '=', account.username).execute();
    const stale = await client.put(apiPaths.webauthnUnlockKey(credential.id), { ...unlockOf('C'), keyEpoch: 0 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({
      message:
        'Your encryption key was rotated meanwhile (from another tab or device), so this passkey was not set up to unlock. Reload Lockit, then add the passkey again.',
    });
    // A body without an epoch names epoch 0, as clients from before epochs made their wraps.
    expect((await client.put(apiPaths.webauthnUnlockKey(credential.id), unlockOf('C'))).statusCode).toBe(409);
    const row = () =>
      h.db.selectFrom('webauthn_credentials').select(['unlock_key']).where('id', '=', credential.id).executeTakeFirstOrThrow();
    expect(await row()).toEqual({ unlock_key: null });

    const current = await client.put(apiPaths.webauthnUnlockKey(credential.id), { ...unlockOf('D'), keyEpoch: 1 });
    expect(current.statusCode).toBe(200);
    expect(await row()).toEqual({ unlock_key: unlockOf('D').unlockKey });
  });

  it("still answers 404 for another account's credential, whatever epoch it names", async () => {
    const { credential } = await withPasskey(null);
    const other = await signedInUser(h);
    const answer = await other.client.put(apiPaths.webauthnUnlockKey(credential.id), { ...unlockOf('E'), keyEpoch: 0 });
    expect(answer.statusCode).toBe(404);
  });
});
