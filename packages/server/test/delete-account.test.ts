import { describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { encryptField, importVaultKey, newEntryId } from '@lockit/crypto';
import { createBody, login, newAccount, signedInUser } from './helpers/accounts';
import { newFolder } from './helpers/folders';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();

describe('DELETE /api/users/delete-account', () => {
  it('removes the user, entries, their history, folders, codes and sessions, and clears the cookies', async () => {
    const { account, client } = await signedInUser(h);
    const other = await signedInUser(h);
    const vaultKey = await importVaultKey(account.vaultKeyBytes);
    const id = newEntryId();
    await client.post(apiPaths.addEntry, {
      id,
      serviceName: await encryptField(vaultKey, id, 'serviceName', 's'),
      username: await encryptField(vaultKey, id, 'username', 'u'),
      password: await encryptField(vaultKey, id, 'password', 'p'),
    });
    // An edit and a move to Trash leave history rows; a folder, a row of its own.
    await client.put(apiPaths.updateEntry(id), {
      serviceName: await encryptField(vaultKey, id, 'serviceName', 's2'),
      username: await encryptField(vaultKey, id, 'username', 'u'),
      password: await encryptField(vaultKey, id, 'password', 'p'),
      revision: 1,
    });
    expect((await client.delete(`${apiPaths.deleteEntry(id)}?revision=2`)).statusCode).toBe(200);
    expect((await client.post(apiPaths.folders, await newFolder(account, 'Work'))).statusCode).toBe(201);
    const kept = await newFolder(other.account, 'Theirs');
    expect((await other.client.post(apiPaths.folders, kept)).statusCode).toBe(201);
    const laptop = h.client();
    await login(laptop, account);
    const user = await h.db.selectFrom('users').select('id').where('username', '=', account.username).executeTakeFirstOrThrow();
    // Leave something in every table: a stale code row and a retired refresh token.
    await h.db
      .insertInto('verification_codes')
      .values({ user_id: user.id, code_hash: 'x', expires_at: 0, attempts: 0, sent_at: 0 })
      .execute();
    await laptop.post(apiPaths.refreshToken);
    const sessionIds = (await h.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).map(
      (row) => row.id,
    );
    expect(
      await h.db.selectFrom('retired_refresh_tokens').selectAll().where('session_id', 'in', sessionIds).execute(),
    ).toHaveLength(1);

    expect(await h.db.selectFrom('entry_history').select('id').where('user_id', '=', user.id).execute()).toHaveLength(2);
    expect(await h.db.selectFrom('folders').select('id').where('user_id', '=', user.id).execute()).toHaveLength(1);

    const response = await client.delete(apiPaths.deleteAccount);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Account deleted' });
    expect(client.jar.size).toBe(0);

    const count = async (
      table: 'users' | 'entries' | 'entry_history' | 'folders' | 'sessions' | 'verification_codes',
      column: 'id' | 'user_id',
    ) => (await h.db.selectFrom(table).selectAll().where(column, '=', user.id).execute()).length;
    expect(await count('users', 'id')).toBe(0);
    expect(await count('entries', 'user_id')).toBe(0);
    expect(await count('entry_history', 'user_id')).toBe(0);
    expect(await count('folders', 'user_id')).toBe(0);
    expect(await count('sessions', 'user_id')).toBe(0);
    expect(await count('verification_codes', 'user_id')).toBe(0);
    expect(await h.db.selectFrom('retired_refresh_tokens').selectAll().where('session_id', 'in', sessionIds).execute()).toEqual(
      [],
    );
    expect((await other.client.post(apiPaths.verifySession)).statusCode).toBe(200);
    expect((await other.client.get(apiPaths.folders)).json().data).toMatchObject([{ id: kept.id }]);
  });

  it('makes every old cookie fail on the next request, and sign-in fail', async () => {
    const { account, client } = await signedInUser(h);
    const copy = client.clone();
    await client.delete(apiPaths.deleteAccount);
    expect((await copy.post(apiPaths.verifySession)).json()).toEqual({ message: 'Please sign in.' });
    expect((await copy.post(apiPaths.refreshToken)).statusCode).toBe(401);
    expect((await login(h.client(), account)).statusCode).toBe(401);
  });

  it('frees the username and email for a new account', async () => {
    const { account, client } = await signedInUser(h);
    await client.delete(apiPaths.deleteAccount);
    const again = await newAccount({ username: account.username, email: account.email });
    expect((await h.client().post(apiPaths.createUser, createBody(again))).statusCode).toBe(201);
  });
});
