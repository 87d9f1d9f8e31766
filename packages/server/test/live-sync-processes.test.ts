import { randomInt } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, vaultChangesResponseSchema } from '@lockit/contract';
import { ApiClient, createVerifiedAccount, recordEventStream, startSmtpSink, type SmtpSink } from '@lockit/test-support';
import { startOwnRedis, type OwnRedis } from './faults/own-redis';
import { encryptEntry } from './helpers/entries';
import { recordFigures } from './helpers/figures';
import { createProcessDatabase, startServerProcess, type ProcessDatabase, type ServerProcess } from './helpers/server-process';

/**
 * Live notices across server processes (decision 0066): a client streaming from one process
 * hears of a write made through another, through Redis pub/sub when REDIS_URL is set and
 * through PostgreSQL LISTEN/NOTIFY otherwise. A Redis of this file's own is killed mid-stream.
 * Several processes need PostgreSQL: vitest.config.ts runs this file in the postgres project only.
 */
const runIp = () => `100.${64 + randomInt(64)}.${randomInt(256)}.${randomInt(1, 255)}`;

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink?.close();
});

/** Two processes on one fresh database, sharing REDIS_URL if given. */
function twoProcesses(redisUrl?: () => string) {
  const pair = {} as { database: ProcessDatabase; first: ServerProcess; second: ServerProcess; env: Record<string, string> };
  beforeAll(async () => {
    pair.database = await createProcessDatabase('postgres');
    pair.env = {
      ...pair.database.env,
      SMTP_URL: sink.url,
      SERVER_SECRET: 'live-sync-processes-secret-0123456789abcdef',
      TRUST_PROXY: '1',
      LIVE_HEARTBEAT_SECONDS: '1',
      WEB_DIST_DIR: path.join(pair.database.dataDir, 'no-web'),
      ...(redisUrl ? { REDIS_URL: redisUrl() } : {}),
    };
    [pair.first, pair.second] = await Promise.all([startServerProcess(pair.env), startServerProcess(pair.env)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([pair.first?.stop(), pair.second?.stop()]);
    await pair.database?.drop();
  });
  return pair;
}

async function accountOn(url: string) {
  return createVerifiedAccount(url, sink.inbox, { forwardedFor: runIp() });
}

async function cursorOf(client: ApiClient): Promise<number> {
  const answer = await client.request('GET', `${apiPaths.vaultChanges}?since=0`);
  return vaultChangesResponseSchema.parse(answer.body).data.cursor;
}

/** A write through `writer`, and the time from sending it to the notice reaching a stream of the other process. */
async function noticeLatency(
  writer: ApiClient,
  stream: ReturnType<typeof recordEventStream>,
  account: Awaited<ReturnType<typeof accountOn>>['account'],
) {
  const body = await encryptEntry(account, { serviceName: 'S', username: 'u', password: 'p' });
  const from = stream.events.length;
  const sent = performance.now();
  expect((await writer.request('POST', apiPaths.addEntry, body)).status).toBe(201);
  const notice = await stream.waitFor((event) => event.type === 'change' && JSON.parse(event.data).id === body.id, 10_000, from);
  return { id: body.id as string, ms: notice.at - sent };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measureAcross(pair: ReturnType<typeof twoProcesses>, bus: string) {
  const { account, client: onFirst } = await accountOn(pair.first.url);
  const onSecond = onFirst.copyTo(pair.second.url);
  const stream = recordEventStream(onFirst, apiPaths.vaultEvents);
  const ready = JSON.parse((await stream.waitFor((event) => event.type === 'ready')).data);
  expect(ready).toEqual({ seq: await cursorOf(onFirst) });
  const latencies: number[] = [];
  for (let i = 0; i < 10; i += 1) {
    const { id, ms } = await noticeLatency(onSecond, stream, account);
    latencies.push(ms);
    if (i === 0) {
      // The notice is a hint; the cursor, read from the stream's own process, shows the write.
      const changes = await onFirst.request('GET', `${apiPaths.vaultChanges}?since=${ready.seq}`);
      expect(vaultChangesResponseSchema.parse(changes.body).data).toMatchObject({ entries: [expect.objectContaining({ id })] });
    }
  }
  recordFigures(`live notice across two processes (${bus})`, { medianMs: median(latencies), maxMs: Math.max(...latencies) });
  stream.close();
  return { account, onFirst, onSecond };
}

describe('live notices across processes through Redis pub/sub', () => {
  let redis: OwnRedis;
  let port: number;
  beforeAll(async () => {
    redis = await startOwnRedis();
    port = Number(new URL(redis.url).port);
  });
  afterAll(async () => {
    await redis?.kill();
  });
  const pair = twoProcesses(() => redis.url);

  it('tells a stream on one process of a write made through the other', async () => {
    await measureAcross(pair, 'redis');
  });

  it('closes a stream on one process when its session logs out through the other', async () => {
    const { client: onFirst } = await accountOn(pair.first.url);
    const stream = recordEventStream(onFirst, apiPaths.vaultEvents);
    await stream.waitFor((event) => event.type === 'ready');
    expect((await onFirst.copyTo(pair.second.url).request('POST', apiPaths.logout)).status).toBe(200);
    expect(JSON.parse((await stream.waitFor((event) => event.type === 'end', 5_000)).data)).toEqual({ reason: 'signed-out' });
  });

  it('ends streams with "unavailable" when Redis goes away, refuses new ones meanwhile, and serves them again once it is back', async () => {
    const { account, client: onFirst } = await accountOn(pair.first.url);
    const onSecond = onFirst.copyTo(pair.second.url);
    const stream = recordEventStream(onFirst, apiPaths.vaultEvents);
    await stream.waitFor((event) => event.type === 'ready');
    await redis.kill();
    const ended = await stream.waitFor((event) => event.type === 'end', 5_000);
    expect(JSON.parse(ended.data)).toEqual({ reason: 'unavailable' });
    const refused = recordEventStream(onFirst, apiPaths.vaultEvents);
    expect(await refused.waitForError()).toEqual({ status: 503 });
    // Writes go on without Redis; the cursor is how a client catches up meanwhile.
    const cursor = await cursorOf(onFirst);
    const body = await encryptEntry(account, { serviceName: 'Offline', username: 'u', password: 'p' });
    expect((await onSecond.request('POST', apiPaths.addEntry, body)).status).toBe(201);
    const changes = await onFirst.request('GET', `${apiPaths.vaultChanges}?since=${cursor}`);
    expect(vaultChangesResponseSchema.parse(changes.body).data).toMatchObject({
      entries: [expect.objectContaining({ id: body.id })],
    });

    redis = await startOwnRedis(port);
    let again: ReturnType<typeof recordEventStream> | undefined;
    for (let tries = 0; tries < 50 && !again; tries += 1) {
      const attempt = recordEventStream(onFirst, apiPaths.vaultEvents);
      const first = await Promise.race([
        attempt.waitFor((event) => event.type === 'ready', 5_000).then(() => 'ready' as const),
        attempt.waitForError(5_000).then(() => 'refused' as const),
      ]);
      if (first === 'ready') again = attempt;
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(again).toBeDefined();
    // The second process's subscriber is back too: a write through it is heard here.
    let heard = false;
    for (let tries = 0; tries < 20 && !heard; tries += 1) {
      heard = await noticeLatency(onSecond, again!, account).then(
        () => true,
        () => false,
      );
    }
    expect(heard).toBe(true);
    again!.close();
  }, 60_000);

  it('ends its streams with "closing" when a process shuts down', async () => {
    const { client: onSecond } = await accountOn(pair.second.url);
    const stream = recordEventStream(onSecond, apiPaths.vaultEvents);
    await stream.waitFor((event) => event.type === 'ready');
    await pair.second.stop();
    expect(JSON.parse((await stream.waitFor((event) => event.type === 'end', 10_000)).data)).toEqual({ reason: 'closing' });
  });
});

describe('live notices across processes through PostgreSQL LISTEN/NOTIFY (no Redis)', () => {
  const pair = twoProcesses();

  it('tells a stream on one process of a write made through the other', async () => {
    await measureAcross(pair, 'postgres');
  });
});
