import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { login, signedInUser } from './helpers/accounts';
import { encryptEntry } from './helpers/entries';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();

/**
 * On PostgreSQL queries run as prepared statements (create-database.ts). A later migration,
 * perhaps by another process of a rolling deploy, must not break the running server.
 */
describe('queries of a running server', () => {
  it('keep working after a column is added to the tables they read', async () => {
    const { account, client } = await signedInUser(h);
    const entry = await encryptEntry(account, { serviceName: 's', username: 'u', password: 'p' });
    expect((await client.post(apiPaths.addEntry, entry)).statusCode).toBe(201);
    const touch = async () => {
      expect((await client.get(apiPaths.profile)).statusCode).toBe(200);
      expect((await client.get(apiPaths.keyMaterial)).statusCode).toBe(200);
      expect((await client.get(apiPaths.listEntries)).statusCode).toBe(200);
      expect((await login(h.client(), account)).statusCode).toBe(200);
    };
    // Twice, so each query has been prepared (and run as prepared) on some connection.
    await touch();
    await touch();
    for (const table of ['users', 'sessions', 'entries', 'entry_history', 'folders']) {
      await sql`alter table ${sql.table(table)} add column later_column integer`.execute(h.db);
    }
    await touch();
    const update = await encryptEntry(account, { serviceName: 's2', username: 'u', password: 'p' }, entry.id);
    expect((await client.put(apiPaths.updateEntry(entry.id), { ...update, revision: 1 })).statusCode).toBe(200);
    expect((await client.get(apiPaths.listEntries)).json().data[0]).toMatchObject({ id: entry.id, revision: 2 });
    expect((await client.get(apiPaths.entryHistory(entry.id))).json().data).toMatchObject([{ revision: 1 }]);
    expect((await client.get(apiPaths.folders)).statusCode).toBe(200);
  });
});
