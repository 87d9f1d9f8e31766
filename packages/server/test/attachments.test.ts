import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiPaths, attachmentPaths, ATTACHMENT_PART_MAX_BYTES, listAttachmentsResponseSchema } from '@lockit/contract';
import { signedInUser } from './helpers/accounts';
import { encryptItem } from './helpers/entries';
import { addEntry, putPart, sealedFile, uploadFile } from './helpers/attachments';
import { useTestApp } from './helpers/test-app';
import { createRepositories } from '../src/db/repositories/index';
import { purgeExpiredTrash } from '../src/vault/trash-purge';
import { TEST_DB_KIND } from './helpers/test-database';

const MiB = 1024 * 1024;
const h = useTestApp({ config: { attachmentLimits: { maxFileBytes: MiB, maxAccountBytes: 3 * MiB } } });
const bytes = (size: number, seed = 1) => Uint8Array.from({ length: size }, (_, i) => (i * seed + 3) & 0xff);

async function owner() {
  const user = await signedInUser(h);
  return { ...user, entryId: await addEntry(user.client, user.account) };
}

async function chunkRows(id: string): Promise<number> {
  const rows = await h.db.selectFrom('attachment_chunks').select('byte_offset').where('attachment_id', '=', id).execute();
  return rows.length;
}

/** Whether the store still holds the file's content: a file beside SQLite, or rows on PostgreSQL. */
async function contentStored(userId: string, id: string): Promise<boolean> {
  if (TEST_DB_KIND === 'postgres') return (await chunkRows(id)) > 0;
  const database = h.config.database as { file: string };
  return existsSync(path.join(path.dirname(database.file), 'attachments', userId, id));
}

async function userIdOf(username: string): Promise<string> {
  return (await h.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
}

describe('attachments: upload, list, download, rename, delete', () => {
  it('stores only what the browser sealed, lists it once finished, and serves the same bytes back', async () => {
    const { client, entryId } = await owner();
    const file = await sealedFile(entryId, bytes(200_000));
    const created = await client.post(attachmentPaths.list(entryId), file.body);
    expect(created.statusCode).toBe(201);
    // Not listed while the upload is under way.
    expect(listAttachmentsResponseSchema.parse((await client.get(attachmentPaths.list(entryId))).json()).data).toEqual([]);
    const half = 100_000;
    expect((await putPart(client, entryId, file.ids.fileId, 0, file.sealed.subarray(0, half))).json()).toEqual({
      message: 'Part stored',
      received: half,
    });
    const early = await client.post(attachmentPaths.finish(entryId, file.ids.fileId));
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(
      `Only ${half} of the ${file.sealed.length} bytes announced have arrived: send the rest before finishing.`,
    );
    expect((await putPart(client, entryId, file.ids.fileId, half, file.sealed.subarray(half))).statusCode).toBe(200);
    expect((await client.post(attachmentPaths.finish(entryId, file.ids.fileId))).statusCode).toBe(200);

    const list = listAttachmentsResponseSchema.parse((await client.get(attachmentPaths.list(entryId))).json());
    expect(list.data).toEqual([
      expect.objectContaining({
        id: file.ids.fileId,
        entryId,
        wrappedKey: file.body.wrappedKey,
        metadata: file.body.metadata,
        size: file.sealed.length,
      }),
    ]);
    expect(list.usage).toEqual({ usedBytes: file.sealed.length, maxFileBytes: MiB, maxAccountBytes: 3 * MiB });
    const download = await client.get(attachmentPaths.content(entryId, file.ids.fileId));
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/octet-stream');
    expect(download.headers['cache-control']).toBe('no-store');
    expect(Buffer.compare(download.rawPayload, file.sealed)).toBe(0);
  });

  it('renames with new sealed metadata, and deletes the row and its content', async () => {
    const { account, client, entryId } = await owner();
    const file = await uploadFile(client, entryId, bytes(5000));
    const renamed = (await sealedFile(entryId, bytes(1), 'new name.txt')).body.metadata;
    const answer = await client.put(attachmentPaths.file(entryId, file.ids.fileId), { metadata: renamed });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data.metadata).toBe(renamed);
    const plaintext = await client.put(attachmentPaths.file(entryId, file.ids.fileId), { metadata: 'new name.txt' });
    expect(plaintext.statusCode).toBe(400);
    expect(plaintext.json().message).toMatch(/never plaintext/);

    const userId = await userIdOf(account.username);
    expect(await contentStored(userId, file.ids.fileId)).toBe(true);
    expect((await client.delete(attachmentPaths.file(entryId, file.ids.fileId))).json()).toEqual({ message: 'File deleted' });
    expect((await client.get(attachmentPaths.content(entryId, file.ids.fileId))).statusCode).toBe(404);
    expect(await contentStored(userId, file.ids.fileId)).toBe(false);
  });

  it("another account's file is not found, whatever the call", async () => {
    const { client, entryId } = await owner();
    const file = await uploadFile(client, entryId, bytes(10));
    const stranger = await signedInUser(h);
    for (const [method, url] of [
      ['GET', attachmentPaths.list(entryId)],
      ['GET', attachmentPaths.content(entryId, file.ids.fileId)],
      ['DELETE', attachmentPaths.file(entryId, file.ids.fileId)],
      ['POST', attachmentPaths.finish(entryId, file.ids.fileId)],
    ] as const) {
      expect((await stranger.client.request(method, url)).statusCode, url).toBe(404);
    }
    expect((await client.get(attachmentPaths.content(entryId, file.ids.fileId))).statusCode).toBe(200);
  });

  it('refuses a part at the wrong offset, past the size announced, or not raw bytes, and stores nothing of it', async () => {
    const { client, entryId } = await owner();
    const file = await sealedFile(entryId, bytes(1000));
    await client.post(attachmentPaths.list(entryId), file.body);
    const id = file.ids.fileId;
    const skipped = await putPart(client, entryId, id, 10, file.sealed.subarray(10));
    expect(skipped.statusCode).toBe(409);
    expect(skipped.json().message).toBe(
      'This upload has 0 bytes, so the next part starts there, not at 10. Send it again from there.',
    );
    const tooMuch = await putPart(client, entryId, id, 0, Buffer.concat([file.sealed, Buffer.from([1])]));
    expect(tooMuch.statusCode).toBe(413);
    expect(tooMuch.json().message).toBe('This part goes past the size announced for the file.');
    const json = await client.put(`${attachmentPaths.content(entryId, id)}?offset=0`, { bytes: 'x' });
    expect(json.statusCode).toBe(415);
    const noOffset = await client.request('PUT', attachmentPaths.content(entryId, id), {
      body: file.sealed,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(noOffset.statusCode).toBe(400);
    const huge = await putPart(client, entryId, id, 0, Buffer.alloc(ATTACHMENT_PART_MAX_BYTES + 1));
    expect(huge.statusCode).toBe(413);
    expect((await putPart(client, entryId, id, 0, file.sealed)).json().received).toBe(file.sealed.length);
  });
});

describe('attachment limits', () => {
  it('refuses a file past the per-file limit with 413 and a clear message, before any byte', async () => {
    const { client, entryId } = await owner();
    const atLimit = await sealedFile(entryId, bytes(MiB));
    expect((await client.post(attachmentPaths.list(entryId), atLimit.body)).statusCode).toBe(201);
    const over = await sealedFile(entryId, bytes(MiB + 1));
    const refused = await client.post(attachmentPaths.list(entryId), over.body);
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toEqual({ message: 'This file is larger than the limit of 1 MB per file.' });
  });

  it("refuses a file past the account's total (uploads under way count), and frees room on delete", async () => {
    const { client, entryId } = await owner();
    const files = [];
    for (let i = 0; i < 3; i++) files.push(await uploadFile(client, entryId, bytes(MiB - 200_000, i + 2)));
    const next = await sealedFile(entryId, bytes(700_000));
    const refused = await client.post(attachmentPaths.list(entryId), next.body);
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toEqual({
      message:
        'Your attachments are full: this file needs 683.9 KB, and 584.9 KB of your 3 MB are left. Delete files you no longer need.',
    });
    await client.delete(attachmentPaths.file(entryId, files[0]!.ids.fileId));
    expect((await client.post(attachmentPaths.list(entryId), next.body)).statusCode).toBe(201);
  });
});

describe('attachments follow their entry', () => {
  it('stay with it in Trash and back, refuse new files while trashed, and go with its purge', async () => {
    const { account, client, entryId } = await owner();
    const file = await uploadFile(client, entryId, bytes(3000));
    expect((await client.delete(`${apiPaths.deleteEntry(entryId)}?revision=1`)).statusCode).toBe(200);
    expect((await client.get(attachmentPaths.list(entryId))).json().data).toHaveLength(1);
    const intoTrash = await client.post(attachmentPaths.list(entryId), (await sealedFile(entryId, bytes(5))).body);
    expect(intoTrash.statusCode).toBe(409);
    expect(intoTrash.json().message).toBe('This entry is in Trash: restore it before adding files to it.');
    expect((await client.post(apiPaths.restoreEntry(entryId), { revision: 2 })).statusCode).toBe(200);
    expect((await client.get(attachmentPaths.content(entryId, file.ids.fileId))).statusCode).toBe(200);
    await client.delete(`${apiPaths.deleteEntry(entryId)}?revision=3`);
    expect((await client.delete(`${apiPaths.purgeEntry(entryId)}?revision=4`)).statusCode).toBe(200);
    expect(await h.db.selectFrom('attachments').select('id').where('id', '=', file.ids.fileId).execute()).toEqual([]);
    expect(await contentStored(await userIdOf(account.username), file.ids.fileId)).toBe(false);
  });

  it("go with the trash purge job's purge of their entry", async () => {
    const { account, client, entryId } = await owner();
    const file = await uploadFile(client, entryId, bytes(3000));
    await client.delete(`${apiPaths.deleteEntry(entryId)}?revision=1`);
    h.clock.advance((h.config.trashRetentionDays + 1) * 24 * 60 * 60 * 1000);
    expect(
      await purgeExpiredTrash({ db: h.db, repos: createRepositories(h.db), config: h.config, now: h.clock.now }),
    ).toBeGreaterThan(0);
    expect(await h.db.selectFrom('attachments').select('id').where('id', '=', file.ids.fileId).execute()).toEqual([]);
    expect(await contentStored(await userIdOf(account.username), file.ids.fileId)).toBe(false);
  });

  it('go with an import undo that deletes their entry for good, and stay with an entry it moves to Trash', async () => {
    const { account, client } = await signedInUser(h);
    const batchId = randomUUID();
    const [untouched, edited] = await Promise.all(
      ['imported', 'edited'].map((name) =>
        encryptItem(account, { serviceName: name, username: 'u', password: 'p', overview: { v: 1, type: 'login' } }),
      ),
    );
    expect((await client.post(apiPaths.entryBatch, { batchId, entries: [untouched, edited] })).statusCode).toBe(201);
    // The import attaches its files after the items land, as the web app does.
    const gone = await uploadFile(client, untouched!.id, bytes(3000));
    const kept = await uploadFile(client, edited!.id, bytes(2000));
    const change = await encryptItem(
      account,
      { serviceName: 'renamed', username: 'u', password: 'p2', overview: { v: 1, type: 'login' } },
      edited!.id,
    );
    expect((await client.put(apiPaths.updateEntry(edited!.id), { ...change, revision: 1 })).statusCode).toBe(200);

    const undo = await client.delete(apiPaths.entryBatchUndo(batchId));
    expect(undo.json().data).toEqual({ purged: 1, trashed: 1 });
    const userId = await userIdOf(account.username);
    expect(await h.db.selectFrom('attachments').select('id').where('user_id', '=', userId).execute()).toEqual([
      { id: kept.ids.fileId },
    ]);
    expect(await contentStored(userId, gone.ids.fileId)).toBe(false);
    expect(await contentStored(userId, kept.ids.fileId)).toBe(true);
    // The room the deleted file took is free again.
    const usage = listAttachmentsResponseSchema.parse((await client.get(attachmentPaths.list(edited!.id))).json()).usage;
    expect(usage.usedBytes).toBe(kept.sealed.length);
  });

  it("leave with the account's deletion", async () => {
    const { account, client, entryId } = await owner();
    const file = await uploadFile(client, entryId, bytes(3000));
    const userId = await userIdOf(account.username);
    const response = await client.delete(apiPaths.deleteAccount);
    expect(response.statusCode).toBe(200);
    expect(await h.db.selectFrom('attachments').select('id').where('user_id', '=', userId).execute()).toEqual([]);
    expect(await contentStored(userId, file.ids.fileId)).toBe(false);
  });
});
