import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  apiPaths,
  CHANGE_CURSOR_HEADER,
  parseChangeCursor,
  vaultChangesResponseSchema,
  type VaultChangesWire,
} from '@lockit/contract';
import { generateVaultKeyBytes } from '@lockit/crypto';
import { createRepositories } from '../src/db/repositories/index';
import { purgeExpiredTrash, TOMBSTONE_RETENTION_DAYS } from '../src/vault/trash-purge';
import { signedInUser, login } from './helpers/accounts';
import { encryptEntry } from './helpers/entries';
import { newFolder } from './helpers/folders';
import type { InjectClient } from './helpers/inject-client';
import { commitBody, reencrypt, seedVault, startRotation, userIdOf, vaultRows } from './helpers/key-rotation';
import { useTestApp } from './helpers/test-app';
import { storedVaultState, vaultStateOf, withState } from './helpers/vault-state';

/**
 * The change cursor (decision 0066): GET /api/vault/changes?since=N answers what every write of
 * the vault changed after N, with tombstones for what was deleted for good, or a reset when N
 * cannot be answered in full.
 */
const RETENTION_DAYS = 7;
const DAY = 24 * 60 * 60 * 1000;
const h = useTestApp({ config: { trashRetentionDays: RETENTION_DAYS } });

async function changesSince(client: InjectClient, since: number | string): Promise<VaultChangesWire> {
  const response = await client.get(`${apiPaths.vaultChanges}?since=${since}`);
  expect(response.statusCode, response.body).toBe(200);
  return vaultChangesResponseSchema.parse(response.json()).data;
}

function changed(answer: VaultChangesWire) {
  if (answer.reset) throw new Error(`expected changes, got a reset (${answer.reason})`);
  return answer;
}

const ids = (rows: ReadonlyArray<{ id: string }>) => rows.map((row) => row.id).sort();

async function addEntry(user: Awaited<ReturnType<typeof signedInUser>>, name: string) {
  const body = await encryptEntry(user.account, { serviceName: name, username: 'u', password: 'p' });
  const added = await user.client.post(apiPaths.addEntry, body);
  expect(added.statusCode, added.body).toBe(201);
  return { id: body.id as string, body };
}

describe('GET /api/vault/changes', () => {
  it('answers the whole vault from cursor 0, and nothing new from the cursor it gave', async () => {
    const user = await signedInUser(h);
    const a = await addEntry(user, 'Alpha');
    const b = await addEntry(user, 'Beta');
    const folder = await newFolder(user.account, 'Work');
    expect((await user.client.post(apiPaths.folders, folder)).statusCode).toBe(201);

    const full = changed(await changesSince(user.client, 0));
    const list = (await user.client.get(apiPaths.listEntries)).json().data;
    expect(full.entries).toEqual(list); // the list's wire form, byte for byte the same rows
    expect(ids(full.entries)).toEqual([a.id, b.id].sort());
    expect(ids(full.folders)).toEqual([folder.id]);
    expect(full.purgedEntries).toEqual([]);
    expect(full.cursor).toBe((await storedVaultState(h.db, user.account.username)).vaultRevision);

    expect(changed(await changesSince(user.client, full.cursor))).toEqual({
      reset: false,
      cursor: full.cursor,
      vaultState: null,
      entries: [],
      folders: [],
      purgedEntries: [],
      purgedFolders: [],
    });
  });

  it('gives the list answer the cursor it is at (on a 304 too), so a client that holds the list asks only what came after', async () => {
    const user = await signedInUser(h);
    const a = await addEntry(user, 'Alpha');
    const listed = await user.client.get(apiPaths.listEntries);
    const cursor = parseChangeCursor(listed.headers[CHANGE_CURSOR_HEADER] as string);
    expect(cursor).toBe((await storedVaultState(h.db, user.account.username)).vaultRevision);
    expect(ids(listed.json().data)).toEqual([a.id]);
    const again = await user.client.get(apiPaths.listEntries, { headers: { 'if-none-match': listed.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    expect(again.headers[CHANGE_CURSOR_HEADER]).toBe(String(cursor));

    expect(changed(await changesSince(user.client, cursor!)).entries).toEqual([]);
    const b = await addEntry(user, 'Beta');
    const after = changed(await changesSince(user.client, cursor!));
    expect(ids(after.entries)).toEqual([b.id]);
    expect(parseChangeCursor((await user.client.get(apiPaths.listEntries)).headers[CHANGE_CURSOR_HEADER] as string)).toBe(
      after.cursor,
    );
  });

  it('names each add, edit, move to Trash and restore after the cursor, and only those', async () => {
    const user = await signedInUser(h);
    const kept = await addEntry(user, 'Kept');
    let cursor = changed(await changesSince(user.client, 0)).cursor;
    const next = async (expected: string[]) => {
      const answer = changed(await changesSince(user.client, cursor));
      expect(ids(answer.entries)).toEqual(expected.sort());
      expect(answer.cursor).toBe(cursor + 1);
      cursor = answer.cursor;
      return answer;
    };

    const added = await addEntry(user, 'New');
    expect((await next([added.id])).entries[0]).toMatchObject({ id: added.id, revision: 1, deletedAt: null });

    const edit = await encryptEntry(user.account, { serviceName: 'New', username: 'u2', password: 'p2' }, added.id);
    expect((await user.client.put(apiPaths.updateEntry(added.id), { ...edit, revision: 1 })).statusCode).toBe(200);
    expect((await next([added.id])).entries[0]).toMatchObject({ revision: 2, username: edit.username });

    expect((await user.client.delete(`${apiPaths.deleteEntry(added.id)}?revision=2`)).statusCode).toBe(200);
    expect((await next([added.id])).entries[0]!.deletedAt).not.toBeNull();

    expect((await user.client.post(apiPaths.restoreEntry(added.id), { revision: 3 })).statusCode).toBe(200);
    expect((await next([added.id])).entries[0]).toMatchObject({ revision: 4, deletedAt: null });

    // Several writes between two reads: each entry once, as it is now.
    const other = await addEntry(user, 'Other');
    expect((await user.client.delete(`${apiPaths.deleteEntry(kept.id)}?revision=1`)).statusCode).toBe(200);
    const answer = changed(await changesSince(user.client, cursor));
    expect(ids(answer.entries)).toEqual([other.id, kept.id].sort());
    expect(answer.cursor).toBe(cursor + 2);
  });

  it('answers a purge with a tombstone naming the id and its last revision', async () => {
    const user = await signedInUser(h);
    const gone = await addEntry(user, 'Gone');
    expect((await user.client.delete(`${apiPaths.deleteEntry(gone.id)}?revision=1`)).statusCode).toBe(200);
    const cursor = changed(await changesSince(user.client, 0)).cursor;
    expect((await user.client.delete(`${apiPaths.purgeEntry(gone.id)}?revision=2`)).statusCode).toBe(200);

    const answer = changed(await changesSince(user.client, cursor));
    expect(answer.entries).toEqual([]);
    expect(answer.purgedEntries).toEqual([{ id: gone.id, revision: 2 }]);
    // A full read knows nothing of it: cursor 0 carries no tombstones.
    expect(changed(await changesSince(user.client, 0)).purgedEntries).toEqual([]);
  });

  it('names folder adds, renames and deletes', async () => {
    const user = await signedInUser(h);
    const cursor = changed(await changesSince(user.client, 0)).cursor;
    const folder = await newFolder(user.account, 'Home');
    expect((await user.client.post(apiPaths.folders, folder)).statusCode).toBe(201);
    const renamed = await newFolder(user.account, 'House', folder.id);
    expect((await user.client.put(apiPaths.folder(folder.id), { name: renamed.name, revision: 1 })).statusCode).toBe(200);
    const afterRename = changed(await changesSince(user.client, cursor));
    expect(afterRename.folders).toEqual([expect.objectContaining({ id: folder.id, revision: 2, name: renamed.name })]);

    expect((await user.client.delete(`${apiPaths.folder(folder.id)}?revision=2`)).statusCode).toBe(200);
    const afterDelete = changed(await changesSince(user.client, afterRename.cursor));
    expect(afterDelete.folders).toEqual([]);
    expect(afterDelete.purgedFolders).toEqual([{ id: folder.id, revision: 2 }]);
  });

  it('names every entry of an import batch, and its undo as tombstones and moves to Trash', async () => {
    const user = await signedInUser(h);
    const cursor = changed(await changesSince(user.client, 0)).cursor;
    const batchId = randomUUID();
    const entries = await Promise.all(
      ['One', 'Two', 'Three'].map((name) => encryptEntry(user.account, { serviceName: name, username: 'u', password: 'p' })),
    );
    expect((await user.client.post(apiPaths.entryBatch, { batchId, entries })).statusCode).toBe(201);
    const imported = changed(await changesSince(user.client, cursor));
    expect(ids(imported.entries)).toEqual(ids(entries));
    expect(imported.cursor).toBe(cursor + 1);

    // One entry was edited since the import: the undo moves it to Trash; the others go for good.
    const edited = entries[0]!;
    const edit = await encryptEntry(user.account, { serviceName: 'One', username: 'u', password: 'changed' }, edited.id);
    expect((await user.client.put(apiPaths.updateEntry(edited.id), { ...edit, revision: 1 })).statusCode).toBe(200);
    const beforeUndo = changed(await changesSince(user.client, imported.cursor)).cursor;
    expect((await user.client.delete(apiPaths.entryBatchUndo(batchId))).statusCode).toBe(200);
    const undone = changed(await changesSince(user.client, beforeUndo));
    expect(undone.entries).toEqual([expect.objectContaining({ id: edited.id, revision: 3 })]);
    expect(undone.entries[0]!.deletedAt).not.toBeNull();
    expect(undone.purgedEntries.map((row) => row.id).sort()).toEqual(ids(entries.slice(1)));
    expect(undone.purgedEntries.every((row) => row.revision === 1)).toBe(true);
  });

  it('carries the vault state stored with the vault it describes', async () => {
    const user = await signedInUser(h);
    expect((await user.client.put(apiPaths.vaultState, { state: vaultStateOf(1) })).statusCode).toBe(200);
    const cursor = changed(await changesSince(user.client, 0)).cursor;
    const state = vaultStateOf(2, 1);
    const body = await encryptEntry(user.account, { serviceName: 'S', username: 'u', password: 'p' });
    expect((await user.client.post(apiPaths.addEntry, body, withState(state))).statusCode).toBe(201);
    const answer = changed(await changesSince(user.client, cursor));
    expect(answer.vaultState).toBe(state);
    expect(ids(answer.entries)).toEqual([body.id]);
  });

  it("never shows another account's changes", async () => {
    const owner = await signedInUser(h);
    const stranger = await signedInUser(h);
    const cursor = changed(await changesSince(stranger.client, 0)).cursor;
    await addEntry(owner, 'Private');
    expect(changed(await changesSince(stranger.client, cursor)).entries).toEqual([]);
    expect(changed(await changesSince(stranger.client, 0)).entries).toEqual([]);
  });

  it('answers a reset for a cursor ahead of the vault, and 400 with a message for one that is not a cursor', async () => {
    const user = await signedInUser(h);
    const cursor = changed(await changesSince(user.client, 0)).cursor;
    expect(await changesSince(user.client, cursor + 5)).toEqual({ reset: true, cursor, reason: 'unknown-cursor' });
    for (const bad of ['-1', 'abc', '1.5', '1e400', '']) {
      const response = await user.client.get(`${apiPaths.vaultChanges}?since=${bad}`);
      expect(response.statusCode, bad).toBe(400);
      expect(response.json().message).toMatch(/since/);
    }
    const missing = await user.client.get(apiPaths.vaultChanges);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/since/);
    expect((await h.client().get(`${apiPaths.vaultChanges}?since=0`)).statusCode).toBe(401);
  });

  it('records the trash purge as tombstones, and resets a cursor older than the tombstones kept', async () => {
    const user = await signedInUser(h);
    const old = await addEntry(user, 'Old');
    expect((await user.client.delete(`${apiPaths.deleteEntry(old.id)}?revision=1`)).statusCode).toBe(200);
    const cursor = changed(await changesSince(user.client, 0)).cursor;
    const purge = () => purgeExpiredTrash({ db: h.db, repos: createRepositories(h.db), config: h.config, now: h.clock.now });

    h.clock.advance(RETENTION_DAYS * DAY + 60_000);
    expect(await purge()).toBeGreaterThanOrEqual(1);
    expect((await login(user.client, user.account)).statusCode).toBe(200);
    const answer = changed(await changesSince(user.client, cursor));
    expect(answer.purgedEntries).toEqual([{ id: old.id, revision: 2 }]);
    expect(answer.cursor).toBe(cursor + 1);

    h.clock.advance(TOMBSTONE_RETENTION_DAYS * DAY + 60_000);
    await purge();
    expect((await login(user.client, user.account)).statusCode).toBe(200);
    expect(await changesSince(user.client, cursor)).toEqual({ reset: true, cursor: answer.cursor, reason: 'behind-floor' });
    // The cursor the purge made is still whole: nothing was deleted after it.
    expect(changed(await changesSince(user.client, answer.cursor)).entries).toEqual([]);
    expect(changed(await changesSince(user.client, 0)).entries).toEqual([]);
  });

  it('answers a reset to every cursor from before a key rotation', async () => {
    const user = await signedInUser(h);
    await seedVault(user.account, user.client);
    const userId = await userIdOf(h.db, user.account.username);
    const cursor = changed(await changesSince(user.client, 0)).cursor;
    const newKeyBytes = generateVaultKeyBytes();
    const part = await reencrypt(await vaultRows(h.db, userId), user.account.vaultKeyBytes, newKeyBytes);
    const id = await startRotation(h, user.account, user.client);
    expect((await user.client.put(apiPaths.keyRotationParts(id), part)).statusCode).toBe(200);
    const committed = await user.client.post(apiPaths.keyRotationCommit(id), await commitBody(user.account, newKeyBytes));
    expect(committed.statusCode, committed.body).toBe(200);

    expect(await changesSince(user.client, cursor)).toEqual({ reset: true, cursor: cursor + 1, reason: 'behind-floor' });
    const full = changed(await changesSince(user.client, 0));
    expect(full.cursor).toBe(cursor + 1);
    expect(full.entries).toHaveLength(3);
  });
});
