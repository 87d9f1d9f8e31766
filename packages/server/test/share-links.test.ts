import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  apiPaths,
  listShareLinksResponseSchema,
  openedShareResponseSchema,
  shareLinkResponseSchema,
  sharedLinkInfoResponseSchema,
  type CreateShareLinkRequest,
} from '@lockit/contract';
import { openShare, sealShare, sealShareLabel } from '@lockit/crypto';
import { signedInUser } from './helpers/accounts';
import { useTestApp, type TestHarness } from './helpers/test-app';
import { InjectClient } from './helpers/inject-client';
import { buildApp } from '../src/app';
import { createDatabase } from '../src/db/create-database';
import { deleteExpiredShareLinks } from '../src/jobs/cleanup-jobs';

/** Share links on the API (decision 0078): made, listed, opened with counted openings, revoked, purged. */
const HOUR = 60 * 60;
const DAY = 24 * HOUR;
const longSessions = {
  timing: { accessTokenLifetimeMs: 60 * DAY * 1000, refreshTokenIdleMs: 60 * DAY * 1000, sessionAbsoluteMs: 90 * DAY * 1000 },
};

async function sealedBody(options: Partial<CreateShareLinkRequest> = {}, password: string | null = null) {
  const { sealed, linkKey } = await sealShare({ kind: 'text', text: 'guest wifi: hunter2' }, password);
  const body: CreateShareLinkRequest = {
    id: sealed.id,
    ciphertext: sealed.ciphertext,
    keyCheck: sealed.keyCheck,
    passwordSalt: sealed.passwordSalt,
    expiresInSeconds: DAY,
    maxOpenings: 1,
    deleteAfterOpening: false,
    ...options,
  };
  return { body, linkKey };
}

async function createLink(client: InjectClient, options: Partial<CreateShareLinkRequest> = {}) {
  const { body, linkKey } = await sealedBody(options);
  const response = await client.post(apiPaths.shareLinks, body);
  expect(response.statusCode).toBe(201);
  return { link: shareLinkResponseSchema.parse(response.json()).data, body, linkKey };
}

describe('share links', () => {
  const h = useTestApp(longSessions);

  it('stores only what the browser sealed and opens to the recipient, who decrypts it with the link key', async () => {
    const { client } = await signedInUser(h);
    const { link, body, linkKey } = await createLink(client, { maxOpenings: 2 });
    expect(link).toMatchObject({ id: body.id, maxOpenings: 2, openingsLeft: 2, deleteAfterOpening: false, needsPassword: false });
    expect(Date.parse(link.expiresAt) - Date.parse(link.createdAt)).toBe(DAY * 1000);
    const row = await h.db.selectFrom('share_links').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain('hunter2');
    expect(JSON.stringify(row)).not.toContain(linkKey);

    const opened = await h.client('198.51.100.7').post(apiPaths.sharedOpen(body.id));
    expect(opened.statusCode).toBe(200);
    const share = openedShareResponseSchema.parse(opened.json()).data;
    expect(share.openingsLeft).toBe(1);
    await expect(openShare(share, linkKey, null)).resolves.toEqual({ kind: 'text', text: 'guest wifi: hunter2' });
  });

  it('reads a share’s state without using an opening, as often as a link preview likes', async () => {
    const { client } = await signedInUser(h);
    const { body } = await createLink(client);
    for (let i = 0; i < 5; i++) {
      const info = await h.client().get(apiPaths.shared(body.id));
      expect(info.statusCode).toBe(200);
      expect(sharedLinkInfoResponseSchema.parse(info.json()).data).toMatchObject({ status: 'available', passwordSalt: null });
      expect(info.body).not.toContain(body.ciphertext);
    }
    expect((await h.client().post(apiPaths.sharedOpen(body.id))).statusCode).toBe(200);
    const used = await h.client().post(apiPaths.sharedOpen(body.id));
    expect(used.statusCode).toBe(410);
    expect(used.json()).toEqual({ message: 'This link has been opened as many times as allowed.' });
    expect(sharedLinkInfoResponseSchema.parse((await h.client().get(apiPaths.shared(body.id))).json()).data.status).toBe(
      'used-up',
    );
  });

  it('tells the recipient a password is needed by its salt', async () => {
    const { client } = await signedInUser(h);
    const { body } = await sealedBody({}, 'pa55word');
    expect((await client.post(apiPaths.shareLinks, body)).statusCode).toBe(201);
    const info = sharedLinkInfoResponseSchema.parse((await h.client().get(apiPaths.shared(body.id))).json()).data;
    expect(info.passwordSalt).toBe(body.passwordSalt);
    expect(listShareLinksResponseSchema.parse((await client.get(apiPaths.shareLinks)).json()).data[0]?.needsPassword).toBe(true);
  });

  it('counts openings atomically: 20 parallel opens of a 3-opening link give exactly 3 successes', async () => {
    const { client } = await signedInUser(h);
    const { body } = await createLink(client, { maxOpenings: 3 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => h.client().post(apiPaths.sharedOpen(body.id))));
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 200)).toHaveLength(3);
    expect(codes.filter((code) => code === 410)).toHaveLength(17);
    const left = answers
      .filter((a) => a.statusCode === 200)
      .map((a) => openedShareResponseSchema.parse(a.json()).data.openingsLeft);
    expect(left.sort()).toEqual([0, 1, 2]);
  });

  it('deletes a link with the opening that uses its last when its owner asked for that', async () => {
    const { client } = await signedInUser(h);
    const { body } = await createLink(client, { maxOpenings: 1, deleteAfterOpening: true });
    expect((await h.client().post(apiPaths.sharedOpen(body.id))).statusCode).toBe(200);
    expect(await h.db.selectFrom('share_links').select('id').where('id', '=', body.id).executeTakeFirst()).toBeUndefined();
    expect((await h.client().post(apiPaths.sharedOpen(body.id))).statusCode).toBe(404);
    expect(listShareLinksResponseSchema.parse((await client.get(apiPaths.shareLinks)).json()).data).toEqual([]);
  });

  it('lists the owner’s live links only, with openings left, newest first', async () => {
    const alice = await signedInUser(h);
    const bob = await signedInUser(h);
    const first = await createLink(alice.client, { maxOpenings: 3 });
    h.clock.advance(1000);
    const second = await createLink(alice.client, { maxOpenings: 5, expiresInSeconds: HOUR });
    await createLink(bob.client);
    await h.client().post(apiPaths.sharedOpen(first.body.id));
    const listed = listShareLinksResponseSchema.parse((await alice.client.get(apiPaths.shareLinks)).json()).data;
    expect(listed.map((link) => [link.id, link.openingsLeft])).toEqual([
      [second.body.id, 5],
      [first.body.id, 2],
    ]);
    expect(JSON.stringify(listed)).not.toContain(first.body.ciphertext);
    h.clock.advance(HOUR * 1000);
    expect(
      listShareLinksResponseSchema.parse((await alice.client.get(apiPaths.shareLinks)).json()).data.map((l) => l.id),
    ).toEqual([first.body.id]);
  });

  it('refuses an expired link (410) and the cleanup job purges it with its ciphertext', async () => {
    const { client } = await signedInUser(h);
    const { body } = await createLink(client, { maxOpenings: 5, expiresInSeconds: HOUR });
    h.clock.advance(HOUR * 1000);
    const info = sharedLinkInfoResponseSchema.parse((await h.client().get(apiPaths.shared(body.id))).json()).data;
    expect(info.status).toBe('expired');
    const opened = await h.client().post(apiPaths.sharedOpen(body.id));
    expect(opened.statusCode).toBe(410);
    expect(opened.json()).toEqual({ message: 'This link has expired.' });
    const { createRepositories } = await import('../src/db/repositories/index');
    const purged = await deleteExpiredShareLinks(
      { db: h.db, repos: createRepositories(h.db), config: h.config, now: h.clock.now },
      new AbortController().signal,
    );
    expect(purged.shareLinks).toBeGreaterThanOrEqual(1);
    expect(await h.db.selectFrom('share_links').select('id').where('id', '=', body.id).executeTakeFirst()).toBeUndefined();
    expect((await h.client().get(apiPaths.shared(body.id))).statusCode).toBe(404);
  });

  it('revokes at once: the link opens for nobody; another user’s revoke is 404', async () => {
    const alice = await signedInUser(h);
    const bob = await signedInUser(h);
    const { body } = await createLink(alice.client, { maxOpenings: 5 });
    const byBob = await bob.client.delete(apiPaths.shareLink(body.id));
    expect(byBob.statusCode).toBe(404);
    expect((await h.client().get(apiPaths.shared(body.id))).statusCode).toBe(200);
    const revoked = await alice.client.delete(apiPaths.shareLink(body.id.toUpperCase()));
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ message: 'Share link revoked' });
    expect((await h.client().post(apiPaths.sharedOpen(body.id))).statusCode).toBe(404);
    expect((await h.client().get(apiPaths.shared(body.id))).json()).toEqual({
      message: 'No share link with that id. It may have been revoked.',
    });
  });

  it('keeps the owner’s sealed label as sent and gives it back to the owner only, never to the recipient', async () => {
    const { client } = await signedInUser(h);
    const vaultKey = await globalThis.crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt']);
    const { body } = await sealedBody();
    const label = await sealShareLabel(vaultKey, body.id, { itemId: 'item-1', title: 'Guest Wifi' });
    expect((await client.post(apiPaths.shareLinks, { ...body, label })).statusCode).toBe(201);
    const listed = listShareLinksResponseSchema.parse((await client.get(apiPaths.shareLinks)).json()).data;
    expect(listed.find((link) => link.id === body.id)?.label).toBe(label);
    const opened = await h.client('198.51.100.8').post(apiPaths.sharedOpen(body.id));
    expect(JSON.stringify(opened.json())).not.toContain(label);
    expect(JSON.stringify((await h.client('198.51.100.8').get(apiPaths.shared(body.id))).json())).not.toContain(label);
  });

  it('lets the owner replace a link’s sealed label (a key rotation does), and nobody else', async () => {
    const alice = await signedInUser(h);
    const bob = await signedInUser(h);
    const { body } = await createLink(alice.client);
    const key = await globalThis.crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt']);
    const label = await sealShareLabel(key, body.id, { itemId: null, title: 'A text' });
    const path = `${apiPaths.shareLinks}/${body.id}/label`;
    expect((await bob.client.put(path, { label })).statusCode).toBe(404);
    expect((await alice.client.put(path, { label: 'A text, in plain text' })).statusCode).toBe(400);
    expect((await alice.client.put(path, { label })).statusCode).toBe(200);
    const listed = listShareLinksResponseSchema.parse((await alice.client.get(apiPaths.shareLinks)).json()).data;
    expect(listed.find((link) => link.id === body.id)?.label).toBe(label);
    expect((await h.client().put(path, { label })).statusCode).toBe(401);
  });

  it('refuses malformed bodies before storing anything', async () => {
    const { client } = await signedInUser(h);
    const { body } = await sealedBody();
    const bad: Record<string, unknown>[] = [
      { ...body, expiresInSeconds: HOUR - 1 },
      { ...body, expiresInSeconds: 30 * DAY + 1 },
      { ...body, maxOpenings: 0 },
      { ...body, maxOpenings: 1.5 },
      { ...body, ciphertext: 'the secret in plain text' },
      { ...body, keyCheck: 'short' },
      { ...body, passwordSalt: 'not-a-salt' },
      { ...body, id: 'not-a-uuid' },
      { ...body, deleteAfterOpening: 'yes' },
      { ...body, linkKey: 'never-sent' },
      { ...body, label: 'Guest Wifi, in plain text' },
    ];
    for (const candidate of bad) {
      const response = await client.post(apiPaths.shareLinks, candidate);
      expect(response.statusCode, JSON.stringify(candidate)).toBe(400);
      expect(typeof response.json().message).toBe('string');
    }
    expect(await h.db.selectFrom('share_links').select('id').where('id', '=', body.id).executeTakeFirst()).toBeUndefined();
    expect((await h.client().post(apiPaths.sharedOpen('nope'))).statusCode).toBe(400);
    expect((await h.client().post(apiPaths.shareLinks, body)).statusCode).toBe(401);
  });

  it('refuses a share id already taken, keeping the first share', async () => {
    const alice = await signedInUser(h);
    const bob = await signedInUser(h);
    const { body } = await createLink(alice.client);
    const again = await bob.client.post(apiPaths.shareLinks, { ...body, maxOpenings: 50 });
    expect(again.statusCode).toBe(409);
    const row = await h.db.selectFrom('share_links').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
    expect(Number(row.max_openings)).toBe(1);
  });
});

describe('share links across two server processes on one database', () => {
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

  it('opens a 3-opening link exactly 3 times when 20 openings race on both processes', async () => {
    const { client } = await signedInUser(h);
    const { body } = await createLink(client, { maxOpenings: 3 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? h.client() : new InjectClient(other)).post(apiPaths.sharedOpen(body.id)),
      ),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(3);
    expect(answers.filter((answer) => answer.statusCode === 410)).toHaveLength(17);
  });
});

describe('share links turned off by the operator', () => {
  const h = useTestApp({ ...longSessions, config: { shareLinks: { enabled: false } } });

  it('refuses making and opening links (403) but lets owners list and revoke', async (): Promise<void> => {
    const { client } = await signedInUser(h);
    const { body } = await sealedBody();
    const refused = await client.post(apiPaths.shareLinks, body);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'Share links are turned off on this server.' });
    expect(await h.db.selectFrom('share_links').select('id').executeTakeFirst()).toBeUndefined();
    // A link made before the operator turned them off: it no longer opens.
    const { createRepositories } = await import('../src/db/repositories/index');
    const { user_id } = await firstUser(h);
    await createRepositories(h.db).shareLinks.insert({
      id: body.id,
      user_id,
      ciphertext: body.ciphertext,
      key_check: body.keyCheck,
      password_salt: null,
      max_openings: 1,
      openings_left: 1,
      delete_after_opening: 0,
      created_at: h.clock.now(),
      expires_at: h.clock.now() + DAY * 1000,
    });
    expect((await h.client().get(apiPaths.shared(body.id))).statusCode).toBe(403);
    expect((await h.client().post(apiPaths.sharedOpen(body.id))).statusCode).toBe(403);
    expect(listShareLinksResponseSchema.parse((await client.get(apiPaths.shareLinks)).json()).data).toHaveLength(1);
    expect((await client.delete(apiPaths.shareLink(body.id))).statusCode).toBe(200);
    expect((await h.client().get(apiPaths.publicConfig)).json().data.shareLinks).toBe(false);
  });
});

describe('share links are rate-limited per address like other public routes', () => {
  const h = useTestApp({ ...longSessions, rateLimits: { sharedLinkPerIp: { points: 3, durationSeconds: 60 } } });

  it('answers 429 past the window, reading and opening together, and other addresses still get through', async () => {
    const { client } = await signedInUser(h);
    const { body } = await createLink(client, { maxOpenings: 5 });
    const stranger = h.client('203.0.113.9');
    expect((await stranger.get(apiPaths.shared(body.id))).statusCode).toBe(200);
    expect((await stranger.get(apiPaths.shared(body.id))).statusCode).toBe(200);
    expect((await stranger.post(apiPaths.sharedOpen(body.id))).statusCode).toBe(200);
    expect((await stranger.post(apiPaths.sharedOpen(body.id))).statusCode).toBe(429);
    expect((await stranger.get(apiPaths.shared(body.id))).statusCode).toBe(429);
    expect((await h.client('203.0.113.10').post(apiPaths.sharedOpen(body.id))).statusCode).toBe(200);
  });
});

async function firstUser(h: TestHarness): Promise<{ user_id: string }> {
  const row = await h.db.selectFrom('users').select('id').executeTakeFirstOrThrow();
  return { user_id: row.id };
}
