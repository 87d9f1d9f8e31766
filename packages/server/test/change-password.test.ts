import { describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { encryptField, importVaultKey, newEntryId, unwrapVaultKey } from '@lockit/crypto';
import { login, makeKeyMaterial, signedInUser } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';
import { createUsersRepository } from '../src/db/repositories/users-repository';

const h = useTestApp();

async function changeBody(
  account: Pick<Awaited<ReturnType<typeof signedInUser>>['account'], 'keys' | 'vaultKeyBytes'>,
  newPassword: string,
  keyGeneration = 1,
) {
  const next = await makeKeyMaterial(newPassword, account.vaultKeyBytes, undefined, keyGeneration);
  return {
    next,
    body: {
      oldPassword: account.keys.authKey,
      newPassword: next.keys.authKey,
      kdf: next.kdf,
      salt: next.salt,
      protectedKey: next.protectedKey,
      keyGeneration,
    },
  };
}

describe('PUT /api/users/change-password', () => {
  it('swaps the keys: old authKey fails, new one works, and the vault key unwraps unchanged', async () => {
    const { account, client } = await signedInUser(h);
    const { next, body } = await changeBody(account, 'a brand new master password');
    const response = await client.put(apiPaths.changePassword, body);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Password updated' });

    expect((await login(h.client(), account)).statusCode).toBe(401);
    const relogin = await h.client().post(apiPaths.login, { username: account.username, password: next.keys.authKey });
    expect(relogin.statusCode).toBe(200);
    const prelogin = (await h.client().post(apiPaths.prelogin, { username: account.username })).json();
    expect(prelogin.data).toEqual({ kdf: next.kdf, salt: next.salt, keyGeneration: 1 });
    expect(relogin.json().data.keyGeneration).toBe(1);
    const vaultKey = await unwrapVaultKey(
      relogin.json().data.protectedKey,
      next.keys.wrapKey,
      prelogin.data.kdf,
      prelogin.data.salt,
      prelogin.data.keyGeneration,
    );
    expect(vaultKey).toEqual(account.vaultKeyBytes);
  });

  it('ends every session, and gives the caller a fresh one', async () => {
    const { account, client } = await signedInUser(h);
    const oldCookies = client.clone();
    const phone = h.client();
    await login(phone, account);
    const { body } = await changeBody(account, 'another new password');
    expect((await client.put(apiPaths.changePassword, body)).statusCode).toBe(200);

    expect(client.jar.get('lockit_access')).not.toBe(oldCookies.jar.get('lockit_access'));
    expect((await client.post(apiPaths.verifySession)).statusCode).toBe(200);
    expect((await oldCookies.post(apiPaths.verifySession)).json()).toEqual({ message: 'Please sign in.' });
    expect((await oldCookies.post(apiPaths.refreshToken)).statusCode).toBe(401);
    expect((await phone.post(apiPaths.verifySession)).statusCode).toBe(401);
  });

  it('leaves entries untouched', async () => {
    const { account, client } = await signedInUser(h);
    const vaultKey = await importVaultKey(account.vaultKeyBytes);
    const id = newEntryId();
    const entry = {
      id,
      serviceName: await encryptField(vaultKey, id, 'serviceName', 'mail'),
      username: await encryptField(vaultKey, id, 'username', 'me'),
      password: await encryptField(vaultKey, id, 'password', 'pw'),
    };
    expect((await client.post(apiPaths.addEntry, entry)).statusCode).toBe(201);
    const before = (await client.get(apiPaths.listEntries)).json().data;
    const { body } = await changeBody(account, 'yet another password');
    await client.put(apiPaths.changePassword, body);
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual(before);
  });

  it('refuses a wrong current password with 403 and changes nothing', async () => {
    const { account, client } = await signedInUser(h);
    const { body } = await changeBody(account, 'new one');
    const impostor = await makeKeyMaterial('not the password');
    const response = await client.put(apiPaths.changePassword, { ...body, oldPassword: impostor.keys.authKey });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: 'Current password is incorrect.' });
    expect((await client.post(apiPaths.verifySession)).statusCode).toBe(200);
    expect((await login(h.client(), account)).statusCode).toBe(200);
  });

  it('names the field for bad input (plaintext key, weak KDF, missing salt)', async () => {
    const { account, client } = await signedInUser(h);
    const { body } = await changeBody(account, 'whatever');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ protectedKey: 'my vault key' }, 'protectedKey must be a Lockit ciphertext (v1.<iv>.<data>), never plaintext'],
      [{ kdf: { ...body.kdf, iterations: 2 } }, 'kdf.iterations must be at least 3'],
      [{ kdf: { ...body.kdf, memoryKiB: 19 * 1024 } }, 'kdf.memoryKiB must be at least 65536'],
      [{ keyGeneration: undefined }, 'keyGeneration is required'],
      [{ salt: undefined }, 'salt is required'],
      [{ newPassword: 'new plain password' }, 'newPassword must be 32 bytes of base64url'],
    ];
    for (const [patch, message] of cases) {
      const response = await client.put(apiPaths.changePassword, { ...body, ...patch });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message });
    }
    expect((await login(h.client(), account)).statusCode).toBe(200);
  });

  it('raises the key generation by one with each change, served by prelogin, login and key-material', async () => {
    const { account, client } = await signedInUser(h);
    const first = await changeBody(account, 'first new password', 1);
    expect((await client.put(apiPaths.changePassword, first.body)).statusCode).toBe(200);
    const second = await changeBody({ ...account, keys: first.next.keys }, 'second new password', 2);
    expect((await client.put(apiPaths.changePassword, second.body)).statusCode).toBe(200);

    expect((await h.client().post(apiPaths.prelogin, { username: account.username })).json().data.keyGeneration).toBe(2);
    const relogin = await login(h.client(), { username: account.username, keys: second.next.keys });
    expect(relogin.json().data.keyGeneration).toBe(2);
    expect((await client.get(apiPaths.keyMaterial)).json().data.keyGeneration).toBe(2);
  });

  it.each([
    ['the current generation again (a replayed wrap), as bad input', 0, 400],
    ['a skipped generation, as a conflict', 2, 409],
  ])('refuses %s and changes nothing', async (_what, keyGeneration, status) => {
    const { account, client } = await signedInUser(h);
    const { body } = await changeBody(account, 'a password that must not stick', Math.max(keyGeneration, 1));
    const response = await client.put(apiPaths.changePassword, { ...body, keyGeneration });
    expect(response.statusCode).toBe(status);
    expect((await login(h.client(), account)).statusCode).toBe(200);
    expect((await h.client().post(apiPaths.prelogin, { username: account.username })).json().data).toEqual({
      kdf: account.kdf,
      salt: account.salt,
      keyGeneration: 0,
    });
  });

  it('lets only one of two changes racing from the same generation win', async () => {
    const { account, client } = await signedInUser(h);
    const tab = client.clone();
    const a = await changeBody(account, 'tab A password');
    const b = await changeBody(account, 'tab B password');
    const [first, second] = await Promise.all([
      client.put(apiPaths.changePassword, a.body),
      tab.put(apiPaths.changePassword, b.body),
    ]);
    // The loser is refused: 409 when it read the old generation, 401 when the winner had
    // already ended its session; never a second 200.
    expect([first.statusCode, second.statusCode].filter((status) => status === 200)).toHaveLength(1);
    const winner = first.statusCode === 200 ? a : b;
    expect((await h.client().post(apiPaths.prelogin, { username: account.username })).json().data).toEqual({
      kdf: winner.next.kdf,
      salt: winner.next.salt,
      keyGeneration: 1,
    });
  });

  it('stores new key material only for exactly the stored generation + 1, once', async () => {
    const { account } = await signedInUser(h);
    const user = await usersRepo().findByFoldedUsername(account.username.toLowerCase());
    const keys = (keyGeneration: number) => ({
      authHash: user!.auth_hash,
      kdfAlgorithm: 'argon2id',
      kdfMemoryKiB: 65536,
      kdfIterations: 3,
      kdfParallelism: 4,
      salt: account.salt,
      protectedKey: account.protectedKey,
      keyGeneration,
    });
    expect(await usersRepo().updateKeyMaterial(user!.id, keys(2), 1)).toBe(false);
    expect(await usersRepo().updateKeyMaterial(user!.id, keys(1), 1)).toBe(true);
    expect(await usersRepo().updateKeyMaterial(user!.id, keys(1), 1)).toBe(false);
    expect((await usersRepo().findById(user!.id))!.key_generation).toBe(1);
  });
});

function usersRepo() {
  return createUsersRepository(h.db);
}
