import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  apiPaths,
  attachmentPaths,
  listAttachmentsResponseSchema,
  listShareLinksResponseSchema,
  openedShareResponseSchema,
} from '@lockit/contract';
import { signedInUser } from './helpers/accounts';
import { addEntry } from './helpers/attachments';
import { decryptDownloaded, putSharePart, sealedShareFile, shareFile } from './helpers/share-files';
import { useTestApp, type TestHarness } from './helpers/test-app';
import { InjectClient } from './helpers/inject-client';
import { TEST_DB_KIND } from './helpers/test-database';
import { buildApp } from '../src/app';
import { createDatabase } from '../src/db/create-database';
import { deleteExpiredShareLinks } from '../src/jobs/cleanup-jobs';
import { createRepositories } from '../src/db/repositories/index';

/** Shared files (decision 0081): uploaded sealed, counted as storage, fetched only by an opening's ticket, freed with the link. */
const MiB = 1024 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;
const limits = { attachmentLimits: { maxFileBytes: MiB, maxAccountBytes: 3 * MiB } };
const longSessions = {
  timing: { accessTokenLifetimeMs: 60 * DAY_MS, refreshTokenIdleMs: 60 * DAY_MS, sessionAbsoluteMs: 90 * DAY_MS },
};
const bytes = (size: number, seed = 1) => Uint8Array.from({ length: size }, (_, i) => (i * seed + 5) & 0xff);

/** Whether the store still holds a shared file: a file beside SQLite, or rows on PostgreSQL. */
async function stored(h: TestHarness, userId: string, id: string): Promise<boolean> {
  if (TEST_DB_KIND === 'postgres') {
    return (await h.db.selectFrom('share_file_chunks').select('byte_offset').where('share_id', '=', id).execute()).length > 0;
  }
  const database = h.config.database as { file: string };
  return existsSync(path.join(path.dirname(database.file), 'share-files', userId, id));
}

async function userIdOf(h: TestHarness, username: string): Promise<string> {
  return (await h.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
}

async function usedBytes(client: InjectClient, entryId: string): Promise<number> {
  return listAttachmentsResponseSchema.parse((await client.get(attachmentPaths.list(entryId))).json()).usage.usedBytes;
}

function download(client: InjectClient, id: string, ticket: unknown) {
  return client.post(apiPaths.sharedFile(id), { ticket });
}

async function open(client: InjectClient, id: string) {
  const response = await client.post(apiPaths.sharedOpen(id));
  expect(response.statusCode).toBe(200);
  return openedShareResponseSchema.parse(response.json()).data;
}

async function purge(h: TestHarness): Promise<void> {
  await deleteExpiredShareLinks({ ...h, repos: createRepositories(h.db), now: h.clock.now }, new AbortController().signal);
}

describe('shared files', () => {
  const h = useTestApp({ ...longSessions, config: limits });

  it('opens only once every byte arrived, then gives the recipient the same sealed bytes for the opening’s ticket', async () => {
    const { client, account } = await signedInUser(h);
    const user = { id: await userIdOf(h, account.username) };
    const plain = bytes(300_000);
    const file = await sealedShareFile(plain, null, 'salary-2026.pdf');
    expect((await client.post(apiPaths.shareLinks, file.body)).statusCode).toBe(201);
    // Under way: the recipient sees no link yet, and no opening is used.
    expect((await h.client().get(apiPaths.shared(file.body.id))).statusCode).toBe(404);
    expect((await h.client().post(apiPaths.sharedOpen(file.body.id))).statusCode).toBe(404);
    const half = 150_000;
    expect((await putSharePart(client, file.body.id, 0, file.sealed.subarray(0, half))).json()).toEqual({
      message: 'Part stored',
      received: half,
    });
    const early = await client.post(apiPaths.shareLinkFinish(file.body.id));
    expect(early.statusCode).toBe(409);
    expect((await putSharePart(client, file.body.id, 0, file.sealed.subarray(0, 10))).statusCode).toBe(409);
    expect(
      (await putSharePart(client, file.body.id, half, Buffer.concat([file.sealed.subarray(half), Buffer.from([1])]))).statusCode,
    ).toBe(413);
    expect((await putSharePart(client, file.body.id, half, file.sealed.subarray(half))).statusCode).toBe(200);
    expect((await client.post(apiPaths.shareLinkFinish(file.body.id))).statusCode).toBe(200);
    expect((await putSharePart(client, file.body.id, 0, file.sealed.subarray(0, 10))).statusCode).toBe(409);

    const listed = listShareLinksResponseSchema.parse((await client.get(apiPaths.shareLinks)).json()).data;
    expect(listed.find((link) => link.id === file.body.id)?.file).toEqual({ size: file.sealed.length, finished: true });
    const row = await h.db.selectFrom('share_links').selectAll().where('id', '=', file.body.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain('salary');
    expect(await stored(h, user.id, file.body.id)).toBe(true);

    const recipient = h.client('198.51.100.20');
    const opened = await open(recipient, file.body.id);
    expect(opened.file?.size).toBe(file.sealed.length);
    const fetched = await download(recipient, file.body.id, opened.file!.ticket);
    expect(fetched.statusCode).toBe(200);
    expect(fetched.headers['content-type']).toBe('application/octet-stream');
    expect(fetched.headers['cache-control']).toBe('no-store');
    expect(fetched.rawPayload.equals(file.sealed)).toBe(true);
    expect(Buffer.from(await decryptDownloaded(opened, file.linkKey, fetched.rawPayload)).equals(Buffer.from(plain))).toBe(true);
    // The download took no opening of its own: the link (max 1) is used up by the opening alone.
    expect((await h.client().post(apiPaths.sharedOpen(file.body.id))).statusCode).toBe(410);
  });

  it('refuses a download without an opening: no ticket, a made-up one, another link’s, or one too old', async () => {
    const { client } = await signedInUser(h);
    const one = await shareFile(client, bytes(1000), { maxOpenings: 5 });
    const two = await shareFile(client, bytes(1000, 3), { maxOpenings: 5 });
    const stranger = h.client('198.51.100.21');
    expect((await stranger.post(apiPaths.sharedFile(one.body.id), {})).statusCode).toBe(400);
    for (const ticket of [
      'x',
      `${Date.now() + 60_000}.0.bm9uY2U.bWFj`,
      `${Date.now() + 60_000}.1.AAAAAAAAAAAAAAAA.${'A'.repeat(43)}`,
    ]) {
      const refused = await download(stranger, one.body.id, ticket);
      expect(refused.statusCode, ticket).toBe(403);
      expect(refused.json()).toEqual({
        message: 'This download was not opened, or it was opened too long ago. Open the link again.',
      });
    }
    const openedTwo = await open(stranger, two.body.id);
    expect((await download(stranger, one.body.id, openedTwo.file!.ticket)).statusCode).toBe(403);
    const openedOne = await open(stranger, one.body.id);
    expect((await download(stranger, one.body.id, openedOne.file!.ticket)).statusCode).toBe(200);
    h.clock.advance(11 * 60 * 1000);
    expect((await download(stranger, one.body.id, openedOne.file!.ticket)).statusCode).toBe(403);
    const row = await h.db
      .selectFrom('share_links')
      .select('openings_left')
      .where('id', '=', one.body.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.openings_left)).toBe(4);
  });

  it('counts the file against the account’s storage from the create on and frees it with a revoke', async () => {
    const { client, account } = await signedInUser(h);
    const user = { id: await userIdOf(h, account.username) };
    const entryId = await addEntry(client, account);
    expect(await usedBytes(client, entryId)).toBe(0);
    const file = await shareFile(client, bytes(MiB - 1000));
    expect(await usedBytes(client, entryId)).toBe(file.sealed.length);
    await shareFile(client, bytes(MiB - 1000, 7));
    await shareFile(client, bytes(MiB - 1000, 9));
    // The account's 3 MiB are taken: one more file is refused before any byte is stored.
    const over = await sealedShareFile(bytes(5000));
    const refused = await client.post(apiPaths.shareLinks, over.body);
    expect(refused.statusCode).toBe(413);
    expect(refused.json().message).toMatch(/^Your attachments are full/);
    expect(await h.db.selectFrom('share_links').select('id').where('id', '=', over.body.id).executeTakeFirst()).toBeUndefined();
    // Past the per-file limit.
    const big = await sealedShareFile(bytes(MiB + 1));
    expect((await client.post(apiPaths.shareLinks, big.body)).statusCode).toBe(413);

    expect((await client.delete(apiPaths.shareLink(file.body.id))).statusCode).toBe(200);
    expect(await stored(h, user.id, file.body.id)).toBe(false);
    expect(await usedBytes(client, entryId)).toBe(2 * file.sealed.length);
  });

  it('lets only the owner upload and finish', async () => {
    const alice = await signedInUser(h);
    const bob = await signedInUser(h);
    const file = await sealedShareFile(bytes(500));
    expect((await alice.client.post(apiPaths.shareLinks, file.body)).statusCode).toBe(201);
    expect((await putSharePart(bob.client, file.body.id, 0, file.sealed)).statusCode).toBe(404);
    expect((await putSharePart(h.client(), file.body.id, 0, file.sealed)).statusCode).toBe(401);
    expect((await bob.client.post(apiPaths.shareLinkFinish(file.body.id))).statusCode).toBe(404);
    expect(await stored(h, await userIdOf(h, alice.account.username), file.body.id)).toBe(false);
  });

  it('deletes a "delete after opening" file with its link once the opening’s download ended', async () => {
    const { client, account } = await signedInUser(h);
    const user = { id: await userIdOf(h, account.username) };
    const file = await shareFile(client, bytes(200_000), { deleteAfterOpening: true });
    const recipient = h.client('198.51.100.22');
    const opened = await open(recipient, file.body.id);
    // Still there for the download the opening allows.
    expect(await stored(h, user.id, file.body.id)).toBe(true);
    const fetched = await download(recipient, file.body.id, opened.file!.ticket);
    expect(fetched.rawPayload.equals(file.sealed)).toBe(true);
    expect(await h.db.selectFrom('share_links').select('id').where('id', '=', file.body.id).executeTakeFirst()).toBeUndefined();
    expect(await stored(h, user.id, file.body.id)).toBe(false);
    expect((await h.client().post(apiPaths.sharedOpen(file.body.id))).statusCode).toBe(404);
    expect((await download(recipient, file.body.id, opened.file!.ticket)).statusCode).toBe(404);
  });

  it('lets the expiry job delete a used-up "delete after opening" file whose download never came, and expired links’ files', async () => {
    const { client, account } = await signedInUser(h);
    const user = { id: await userIdOf(h, account.username) };
    const unfetched = await shareFile(client, bytes(5000), { deleteAfterOpening: true });
    const expiring = await shareFile(client, bytes(5000, 3), { expiresInSeconds: 60 * 60 });
    await open(h.client('198.51.100.23'), unfetched.body.id);
    h.clock.advance(11 * 60 * 1000);
    await purge(h);
    expect(await stored(h, user.id, unfetched.body.id)).toBe(false);
    expect(await stored(h, user.id, expiring.body.id)).toBe(true);
    h.clock.advance(60 * 60 * 1000);
    await purge(h);
    expect(await stored(h, user.id, expiring.body.id)).toBe(false);
  });

  it('gives back the room of an upload abandoned for a day at the owner’s next file share', async () => {
    const { client, account } = await signedInUser(h);
    const user = { id: await userIdOf(h, account.username) };
    const abandoned = await sealedShareFile(bytes(MiB - 1000));
    expect((await client.post(apiPaths.shareLinks, abandoned.body)).statusCode).toBe(201);
    expect((await putSharePart(client, abandoned.body.id, 0, abandoned.sealed.subarray(0, 1000))).statusCode).toBe(200);
    await shareFile(client, bytes(MiB - 1000, 3));
    await shareFile(client, bytes(MiB - 1000, 5));
    // Three files' room is taken, one of them by the upload under way.
    expect((await client.post(apiPaths.shareLinks, (await sealedShareFile(bytes(5000))).body)).statusCode).toBe(413);
    h.clock.advance(DAY_MS + 1000);
    await shareFile(client, bytes(5000, 7));
    expect(
      await h.db.selectFrom('share_links').select('id').where('id', '=', abandoned.body.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(await stored(h, user.id, abandoned.body.id)).toBe(false);
  });

  it('deletes shared files with the account', async () => {
    const { client, account } = await signedInUser(h);
    const user = { id: await userIdOf(h, account.username) };
    const file = await shareFile(client, bytes(5000));
    expect(await stored(h, user.id, file.body.id)).toBe(true);
    expect((await client.delete(apiPaths.deleteAccount)).statusCode).toBe(200);
    expect(await stored(h, user.id, file.body.id)).toBe(false);
    expect(await h.db.selectFrom('share_links').select('id').where('id', '=', file.body.id).executeTakeFirst()).toBeUndefined();
  });
});

describe('shared files across two server processes on one database', () => {
  const h = useTestApp(longSessions);
  let other: FastifyInstance;
  let otherDb: ReturnType<typeof createDatabase>;
  beforeAll(async () => {
    otherDb = createDatabase(h.config.database);
    other = await buildApp(h.config, { db: otherDb, now: h.clock.now });
    await other.ready();
  });
  afterAll(async () => {
    await other?.close();
    await otherDb?.destroy();
  });

  it('gives one download of a 1-opening file when 10 openings race on both processes, fetched from either', async () => {
    const { client } = await signedInUser(h);
    const file = await shareFile(client, bytes(100_000));
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 === 0 ? h.client() : new InjectClient(other)).post(apiPaths.sharedOpen(file.body.id)),
      ),
    );
    const winners = answers.filter((answer) => answer.statusCode === 200);
    expect(winners).toHaveLength(1);
    expect(answers.filter((answer) => answer.statusCode === 410)).toHaveLength(9);
    const ticket = openedShareResponseSchema.parse(winners[0]!.json()).data.file!.ticket;
    const fetched = await new InjectClient(other).post(apiPaths.sharedFile(file.body.id), { ticket });
    expect(fetched.rawPayload.equals(file.sealed)).toBe(true);
  });
});

describe('shared files when share links are off', () => {
  const h = useTestApp({ ...longSessions, config: { shareLinks: { enabled: false } } });

  it('refuses a file share and its upload (403), storing nothing', async () => {
    const { client } = await signedInUser(h);
    const file = await sealedShareFile(bytes(1000));
    expect((await client.post(apiPaths.shareLinks, file.body)).statusCode).toBe(403);
    expect((await putSharePart(client, file.body.id, 0, file.sealed)).statusCode).toBe(403);
    expect((await h.client().post(apiPaths.sharedFile(file.body.id), { ticket: 'abc' })).statusCode).toBe(403);
    expect(await h.db.selectFrom('share_links').select('id').executeTakeFirst()).toBeUndefined();
  });
});
