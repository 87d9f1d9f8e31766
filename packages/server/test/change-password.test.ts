import { describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { encryptField, importVaultKey, newEntryId, unwrapVaultKey } from '@lockit/crypto';
import { login, makeKeyMaterial, signedInUser } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();

async function changeBody(account: Awaited<ReturnType<typeof signedInUser>>['account'], newPassword: string) {
  const next = await makeKeyMaterial(newPassword, account.vaultKeyBytes);
  return {
    next,
    body: {
      oldPassword: account.keys.authKey,
      newPassword: next.keys.authKey,
      kdf: next.kdf,
      salt: next.salt,
      protectedKey: next.protectedKey,
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
    expect(prelogin.data).toEqual({ kdf: next.kdf, salt: next.salt });
    const vaultKey = await unwrapVaultKey(
      relogin.json().data.protectedKey,
      next.keys.wrapKey,
      prelogin.data.kdf,
      prelogin.data.salt,
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
      [{ kdf: { ...body.kdf, iterations: 1 } }, 'kdf.iterations must be at least 2'],
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
});
