import { beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, changeNoticeSchema, streamEndSchema, vaultChangesResponseSchema } from '@lockit/contract';
import { ApiClient, recordEventStream } from '@lockit/test-support';
import { login, signedInUser } from './helpers/accounts';
import { encryptEntry } from './helpers/entries';
import type { InjectClient } from './helpers/inject-client';
import { useTestApp } from './helpers/test-app';
import { TEST_DB_KIND } from './helpers/test-database';

/**
 * GET /api/vault/events (decision 0066) on one server process, over real HTTP (a stream cannot
 * be injected): on SQLite the notices go through the process's own bus, on PostgreSQL through
 * LISTEN/NOTIFY even here. Short heartbeats and a small cap per account, so their effects show
 * within a test.
 */
const HEARTBEAT_MS = 300;
const PER_ACCOUNT = 3;
const h = useTestApp({ config: { liveSync: { heartbeatMs: HEARTBEAT_MS, perAccount: PER_ACCOUNT } } });
let baseUrl: string;

beforeAll(async () => {
  baseUrl = await h.app.listen({ port: 0, host: '127.0.0.1' });
});

/** The same signed-in session over real HTTP (the inject client's cookies copied). */
function overHttp(client: InjectClient): ApiClient {
  const http = new ApiClient(baseUrl);
  for (const [name, value] of client.jar) http.cookies.set(name, value);
  return http;
}

async function cursorOf(client: InjectClient): Promise<number> {
  const answer = vaultChangesResponseSchema.parse((await client.get(`${apiPaths.vaultChanges}?since=0`)).json()).data;
  return answer.cursor;
}

async function addEntry(client: InjectClient, account: Awaited<ReturnType<typeof signedInUser>>['account']) {
  const body = await encryptEntry(account, { serviceName: 'S', username: 'u', password: 'p' });
  expect((await client.post(apiPaths.addEntry, body)).statusCode).toBe(201);
  return body.id as string;
}

describe(`live vault notices in one process (${TEST_DB_KIND})`, () => {
  it("tells every open stream of the account each committed change, ids and sequence only, and no one else's", async () => {
    const user = await signedInUser(h);
    const stranger = await signedInUser(h);
    const cursor = await cursorOf(user.client);
    const [first, second] = [
      recordEventStream(overHttp(user.client), apiPaths.vaultEvents),
      recordEventStream(overHttp(user.client), apiPaths.vaultEvents),
    ];
    const strangers = recordEventStream(overHttp(stranger.client), apiPaths.vaultEvents);
    for (const stream of [first, second])
      expect(JSON.parse((await stream.waitFor((e) => e.type === 'ready')).data)).toEqual({ seq: cursor });
    await strangers.waitFor((e) => e.type === 'ready');

    const id = await addEntry(user.client, user.account);
    for (const stream of [first, second]) {
      const notice = await stream.waitFor((e) => e.type === 'change');
      expect(changeNoticeSchema.strict().parse(JSON.parse(notice.data))).toEqual({ seq: cursor + 1, id });
      // Nothing but the id and the sequence number travels.
      expect(Object.keys(JSON.parse(notice.data)).sort()).toEqual(['id', 'seq']);
    }
    // A later write is told too, and the stranger heard nothing meanwhile.
    await addEntry(user.client, user.account);
    await first.waitFor((e) => e.type === 'change' && JSON.parse(e.data).seq === cursor + 2);
    expect(strangers.events.filter((e) => e.type === 'change')).toEqual([]);
    for (const stream of [first, second, strangers]) stream.close();
  });

  it('sends no notice for a write that was refused', async () => {
    const user = await signedInUser(h);
    const stream = recordEventStream(overHttp(user.client), apiPaths.vaultEvents);
    await stream.waitFor((e) => e.type === 'ready');
    const id = await addEntry(user.client, user.account);
    await stream.waitFor((e) => e.type === 'change');
    const stale = await encryptEntry(user.account, { serviceName: 'S', username: 'u', password: 'p2' }, id);
    expect((await user.client.put(apiPaths.updateEntry(id), { ...stale, revision: 7 })).statusCode).toBe(409);
    await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_MS * 2));
    expect(stream.events.filter((e) => e.type === 'change')).toHaveLength(1);
    stream.close();
  });

  it('keeps an idle stream alive with heartbeat comments', async () => {
    const user = await signedInUser(h);
    const controller = new AbortController();
    const response = await fetch(`${baseUrl}${apiPaths.vaultEvents}`, {
      headers: { cookie: overHttp(user.client).cookieHeader },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes(': heartbeat')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toMatch(/^retry: \d+\n\nevent: ready\n/);
    controller.abort();
  });

  it('refuses a stream without a session (401), and one past the per-account cap (429), with a message', async () => {
    const anonymous = await fetch(`${baseUrl}${apiPaths.vaultEvents}`);
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).message).toBeTruthy();

    const user = await signedInUser(h);
    const open = Array.from({ length: PER_ACCOUNT }, () => recordEventStream(overHttp(user.client), apiPaths.vaultEvents));
    for (const stream of open) await stream.waitFor((e) => e.type === 'ready');
    const refused = await fetch(`${baseUrl}${apiPaths.vaultEvents}`, { headers: { cookie: overHttp(user.client).cookieHeader } });
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toMatch(/live/i);
    // A stream that closes frees its place.
    open[0]!.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = recordEventStream(overHttp(user.client), apiPaths.vaultEvents);
    await again.waitFor((e) => e.type === 'ready');
    for (const stream of [...open, again]) stream.close();
  });

  it('ends the streams of a session at logout, and of other sessions ended elsewhere, with signed-out', async () => {
    const user = await signedInUser(h);
    const other = h.client();
    expect((await login(other, user.account)).statusCode).toBe(200);
    const mine = recordEventStream(overHttp(user.client), apiPaths.vaultEvents);
    const theirs = recordEventStream(overHttp(other), apiPaths.vaultEvents);
    await mine.waitFor((e) => e.type === 'ready');
    await theirs.waitFor((e) => e.type === 'ready');

    // "End other sessions" on this device: the other device's stream closes, this one stays.
    expect((await user.client.post(apiPaths.endOtherSessions)).statusCode).toBe(200);
    const ended = await theirs.waitFor((e) => e.type === 'end', 5_000);
    expect(streamEndSchema.parse(JSON.parse(ended.data))).toEqual({ reason: 'signed-out' });
    await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_MS * 2));
    expect(mine.events.some((e) => e.type === 'end')).toBe(false);

    expect((await user.client.post(apiPaths.logout)).statusCode).toBe(200);
    expect(JSON.parse((await mine.waitFor((e) => e.type === 'end', 5_000)).data)).toEqual({ reason: 'signed-out' });
  });

  it('ends a stream within a heartbeat when its session is gone without a word (expired, or deleted by an operator)', async () => {
    const user = await signedInUser(h);
    const stream = recordEventStream(overHttp(user.client), apiPaths.vaultEvents);
    await stream.waitFor((e) => e.type === 'ready');
    const started = performance.now();
    await h.db
      .deleteFrom('sessions')
      .where('user_id', 'in', h.db.selectFrom('users').select('id').where('username', '=', user.account.username))
      .execute();
    const ended = await stream.waitFor((e) => e.type === 'end', 5_000);
    expect(JSON.parse(ended.data)).toEqual({ reason: 'signed-out' });
    expect(ended.at - started).toBeLessThan(HEARTBEAT_MS * 3 + 1_000);
  });
});
