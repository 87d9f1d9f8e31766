import { describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { checkKdfParams, unwrapVaultKey } from '@lockit/crypto';
import { makeKeyMaterial, signedInUser } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();

describe('GET /api/user/profile', () => {
  it('answers the username, email and full name of the session user', async () => {
    const { account, client } = await signedInUser(h, { fullname: 'Ada Lovelace' });
    const response = await client.get(apiPaths.profile);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message: 'Success',
      data: { username: account.username, email: account.email, fullname: 'Ada Lovelace' },
    });
  });

  it('never includes key material', async () => {
    const { account, client } = await signedInUser(h);
    const body = (await client.get(apiPaths.profile)).body;
    for (const secret of [account.protectedKey, account.salt, account.keys.authKey]) expect(body).not.toContain(secret);
    expect(body).not.toContain('argon2');
  });
});

describe('GET /api/user/key-material', () => {
  it('answers the KDF parameters, salt and wrapped vault key of the session user, which unlock the vault', async () => {
    const { account, client } = await signedInUser(h);
    const response = await client.get(apiPaths.keyMaterial);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message: 'Success',
      // No passkey holds an unlock key, so the Unlock screen offers none (passkey-unlock.test.ts has the rest).
      data: {
        kdf: account.kdf,
        salt: account.salt,
        protectedKey: account.protectedKey,
        keyGeneration: 0,
        keyEpoch: 0,
        passkeyUnlock: false,
      },
    });
    const { kdf, salt, protectedKey } = response.json().data;
    expect(await unwrapVaultKey(protectedKey, account.keys.wrapKey, checkKdfParams(kdf), salt)).toEqual(account.vaultKeyBytes);
  });

  it('follows a password change', async () => {
    const { account, client } = await signedInUser(h);
    const next = await makeKeyMaterial('changed master password', account.vaultKeyBytes);
    await client.put(apiPaths.changePassword, {
      oldPassword: account.keys.authKey,
      newPassword: next.keys.authKey,
      kdf: next.kdf,
      salt: next.salt,
      protectedKey: next.protectedKey,
      keyGeneration: 1,
    });
    expect((await client.get(apiPaths.keyMaterial)).json().data).toEqual({
      kdf: next.kdf,
      salt: next.salt,
      protectedKey: next.protectedKey,
      keyGeneration: 1,
      keyEpoch: 0,
      passkeyUnlock: false,
    });
  });
});

describe('deny by default', () => {
  const id = '3f2b8c1e-7a4d-4f6b-9c2e-1a2b3c4d5e6f';
  const protectedCalls: Array<[string, 'GET' | 'POST' | 'PUT' | 'DELETE', string]> = [
    ['profile', 'GET', apiPaths.profile],
    ['key-material', 'GET', apiPaths.keyMaterial],
    ['verify', 'POST', apiPaths.verifySession],
    ['update-username', 'PUT', apiPaths.updateUsername],
    ['change-password', 'PUT', apiPaths.changePassword],
    ['delete-account', 'DELETE', apiPaths.deleteAccount],
    ['list entries', 'GET', apiPaths.listEntries],
    ['add entry', 'POST', apiPaths.addEntry],
    ['update entry', 'PUT', apiPaths.updateEntry(id)],
    ['delete entry', 'DELETE', apiPaths.deleteEntry(id)],
    ['restore entry', 'POST', apiPaths.restoreEntry(id)],
    ['purge entry', 'DELETE', apiPaths.purgeEntry(id)],
    ['entry history', 'GET', apiPaths.entryHistory(id)],
    ['entry histories', 'POST', apiPaths.entryHistories],
    ['list folders', 'GET', apiPaths.folders],
    ['add folder', 'POST', apiPaths.folders],
    ['update folder', 'PUT', apiPaths.folder(id)],
    ['delete folder', 'DELETE', apiPaths.folder(id)],
  ];

  it.each(protectedCalls)('%s answers 401 "Please sign in." without a session', async (_name, method, url) => {
    const response = await h.client().request(method, url, { body: method === 'GET' || method === 'DELETE' ? undefined : {} });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'Please sign in.' });
  });

  const publicCalls: Array<[string, string]> = [
    ['create', apiPaths.createUser],
    ['send-code', apiPaths.sendCode],
    ['verify-code', apiPaths.verifyCode],
    ['prelogin', apiPaths.prelogin],
    ['login', apiPaths.login],
    ['refresh-token', apiPaths.refreshToken],
    ['logout', apiPaths.logout],
  ];

  it.each(publicCalls)('%s is declared public and answers without a session', async (_name, url) => {
    const response = await h.client().post(url, {});
    expect(response.json()).not.toEqual({ message: 'Please sign in.' });
    expect(response.statusCode).toBeLessThan(500);
  });
});
