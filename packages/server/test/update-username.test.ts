import { describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { newAccount, signedInUser, signUpAndVerify } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();

describe('PUT /api/users/update-username', () => {
  it('renames the account; sign-in works with the new name only', async () => {
    const { account, client } = await signedInUser(h);
    const renamed = `${account.username}_x`;
    const response = await client.put(apiPaths.updateUsername, { username: renamed });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Username updated', data: { username: renamed } });
    expect((await client.get(apiPaths.profile)).json().data.username).toBe(renamed);
    const oldName = await h.client().post(apiPaths.login, { username: account.username, password: account.keys.authKey });
    expect(oldName.statusCode).toBe(401);
    const newName = await h.client().post(apiPaths.login, { username: renamed, password: account.keys.authKey });
    expect(newName.statusCode).toBe(200);
  });

  it('keeps the KDF salt across a rename (prelogin of the new name answers it)', async () => {
    const { account, client } = await signedInUser(h);
    const renamed = `${account.username}_y`;
    await client.put(apiPaths.updateUsername, { username: renamed });
    const prelogin = await h.client().post(apiPaths.prelogin, { username: renamed });
    expect(prelogin.json().data.salt).toBe(account.salt);
  });

  it('refuses a name another account has, in any case', async () => {
    const other = await newAccount();
    await signUpAndVerify(h, h.client(), other);
    const { client } = await signedInUser(h);
    for (const username of [other.username, other.username.toUpperCase()]) {
      const response = await client.put(apiPaths.updateUsername, { username });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ message: 'That username is already taken.' });
    }
  });

  it("allows a change of case of one's own name", async () => {
    const { account, client } = await signedInUser(h);
    const response = await client.put(apiPaths.updateUsername, { username: account.username.toUpperCase() });
    expect(response.statusCode).toBe(200);
    expect((await client.get(apiPaths.profile)).json().data.username).toBe(account.username.toUpperCase());
  });

  it('names the field and problem for a bad name', async () => {
    const { client } = await signedInUser(h);
    const response = await client.put(apiPaths.updateUsername, { username: 'no spaces allowed' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'username may contain only letters, digits, dots, dashes and underscores' });
    expect((await client.put(apiPaths.updateUsername, {})).json()).toEqual({ message: 'username is required' });
  });
});
