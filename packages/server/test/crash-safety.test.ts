import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { newEntryId } from '@lockit/crypto';
import {
  ApiClient,
  createVerifiedAccount,
  openWireEntry,
  startSmtpSink,
  vaultKeyOf,
  type ApiAnswer,
  type SmtpSink,
  type TestAccount,
} from '@lockit/test-support';
import { encryptEntry, type PlainEntry } from './helpers/entries';
import { recordFigures } from './helpers/figures';
import { createProcessDatabase, startServerProcess, type ProcessDatabase, type ServerProcess } from './helpers/server-process';
import { adminQuery } from './helpers/test-database';

/**
 * The real server process on this project's database (SQLite file or PostgreSQL schema),
 * killed with SIGKILL in the middle of concurrent writes, then restarted: what the client saw
 * acknowledged must be there, intact. Then the restarted process is stopped with SIGTERM while
 * requests are in flight: each must be answered in full before it exits.
 */
const USERS = 4;
const WORKERS_PER_USER = 5;
const KILL_AFTER_ACKS = 300;
const SECRET = 'crash-safety-test-secret-0123456789abcdef';

interface EntryState {
  acked?: PlainEntry;
  /** Sent, not answered when the process died: it may or may not have been applied. */
  pending?: PlainEntry;
}
interface User {
  account: TestAccount;
  client: ApiClient;
  entries: Map<string, EntryState>;
}

let database: ProcessDatabase;
let sink: SmtpSink;
let server: ServerProcess | undefined;
const users: User[] = [];
let acknowledged = 0;

const serverEnv = (logLevel: string) => ({
  ...database.env,
  SMTP_URL: sink.url,
  SERVER_SECRET: SECRET,
  LOG_LEVEL: logLevel,
  WEB_DIST_DIR: path.join(database.dataDir, 'no-web'),
});

beforeAll(async () => {
  sink = await startSmtpSink();
  database = await createProcessDatabase();
  server = await startServerProcess(serverEnv('warn'));
  for (let i = 0; i < USERS; i += 1) {
    const { account, client } = await createVerifiedAccount(server.url, sink.inbox);
    users.push({ account, client, entries: new Map() });
  }
}, 60_000);

afterAll(async () => {
  await server?.stop('SIGKILL');
  await database?.drop();
  await sink?.close();
});

function plainEntry(worker: number, n: number): PlainEntry {
  return {
    serviceName: `service ${worker}-${n}`,
    username: `person ${n} <${worker}@example.test>`,
    password: randomBytes(12).toString('base64url'),
    url: `https://example.test/${worker}/${n}`,
    notes: `${'note '.repeat(50 + (n % 200))}${n}`,
  };
}

/** Adds entries and edits its own, one request at a time, until told to stop. */
async function writer(user: User, worker: number, stop: { now: boolean }): Promise<void> {
  const own: string[] = [];
  /** The revision of each own entry, as the last acknowledged write left it: every save names it. */
  const revisions = new Map<string, number>();
  for (let n = 0; !stop.now; n += 1) {
    const update = own.length > 0 && n % 3 === 2;
    const id = update ? own[n % own.length]! : newEntryId();
    const plain = plainEntry(worker, n);
    const body = await encryptEntry(user.account, plain, id);
    const state = user.entries.get(id) ?? {};
    state.pending = plain;
    user.entries.set(id, state);
    let answer: ApiAnswer;
    try {
      answer = update
        ? await user.client.put(apiPaths.updateEntry(id), { ...body, revision: revisions.get(id) })
        : await user.client.post(apiPaths.addEntry, body);
    } catch (error) {
      if (stop.now) return; // the process was killed under this request
      throw error;
    }
    expect(answer.status, `${update ? 'update' : 'add'} answered`).toBe(update ? 200 : 201);
    revisions.set(id, (answer.body.data as { revision: number }).revision);
    state.acked = plain;
    state.pending = undefined;
    if (!update) own.push(id);
    acknowledged += 1;
  }
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('SIGKILL under concurrent writes', () => {
  it('loses no acknowledged write and leaves a consistent database', async () => {
    const stop = { now: false };
    const writers = users.flatMap((user, u) =>
      Array.from({ length: WORKERS_PER_USER }, (_, w) => writer(user, u * 10 + w, stop)),
    );
    const failure = Promise.race(writers.map((running) => running.then(() => new Promise<never>(() => {}))));
    await Promise.race([until(() => acknowledged >= KILL_AFTER_ACKS, 15_000), failure]);
    stop.now = true;
    expect(await server!.stop('SIGKILL')).toBeNull();
    await Promise.all(writers);
    expect(acknowledged).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
    const inFlight = users.reduce((sum, user) => sum + [...user.entries.values()].filter((state) => state.pending).length, 0);
    expect(inFlight, 'writes in flight when the process died').toBeGreaterThan(0);

    server = await startServerProcess(serverEnv('info'));
    for (const user of users) {
      user.client.baseUrl = server.url;
      const listed = await user.client.get(apiPaths.listEntries);
      expect(listed.status).toBe(200);
      const stored = new Map((listed.body.data as Array<Record<string, unknown>>).map((wire) => [wire.id as string, wire]));
      for (const id of stored.keys()) expect(user.entries.has(id), `unknown entry ${id}`).toBe(true);
      for (const [id, state] of user.entries) {
        const wire = stored.get(id);
        if (!wire) {
          expect(state.acked, `acknowledged entry ${id} is missing`).toBeUndefined();
          continue;
        }
        const plain = await openWireEntry(await vaultKeyOf(user.account), wire);
        expect([state.acked, state.pending].filter(Boolean), `entry ${id}`).toContainEqual(plain);
        if (!state.pending) expect(plain).toEqual(state.acked);
      }
    }

    if (database.kind === 'sqlite') {
      expect(await database.query('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      expect(await database.query('PRAGMA foreign_key_check')).toEqual([]);
    } else {
      await adminQuery('CREATE EXTENSION IF NOT EXISTS amcheck SCHEMA public');
      const checked = await database.query(
        `SELECT c.relname, public.bt_index_check(c.oid, true) FROM pg_index i
           JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
           JOIN pg_am am ON am.oid = c.relam
          WHERE n.nspname = '${database.schema}' AND am.amname = 'btree'`,
      );
      expect(checked.length).toBeGreaterThan(3);
    }
    recordFigures('crash-safety', { acknowledged, inFlight, entries: users.reduce((sum, user) => sum + user.entries.size, 0) });
    const orphans = await database.query<{ count: number | string }>(
      'SELECT count(*) AS count FROM entries e LEFT JOIN users u ON u.id = e.user_id WHERE u.id IS NULL',
    );
    expect(Number(orphans[0]!.count)).toBe(0);
  }, 90_000);
});

describe('SIGTERM', () => {
  it('answers every request already in flight, in full, then exits 0', async () => {
    const adds = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const user = users[i % USERS]!;
        return { user, body: await encryptEntry(user.account, plainEntry(99, i)) };
      }),
    );
    const calls = [
      ...adds.map(
        ({ user, body }) =>
          () =>
            user.client.post(apiPaths.addEntry, body),
      ),
      // Sign-ins spend Argon2 time: several are still computing when the signal arrives.
      ...users.flatMap(({ account }) =>
        [0, 1].map(
          () => () =>
            new ApiClient(server!.url).post(apiPaths.login, { username: account.username, password: account.keys.authKey }),
        ),
      ),
    ];
    const mark = server!.output().length;
    const answers = calls.map((call) => call());
    const arrived = () => server!.output().slice(mark).split('"incoming request"').length - 1;
    await until(() => arrived() >= calls.length, 10_000);
    expect(arrived()).toBe(calls.length);
    const exitCode = server!.stop('SIGTERM');

    const settled = await Promise.allSettled(answers);
    const statuses = settled.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.status : String(outcome.reason)));
    expect(statuses).toEqual([...adds.map(() => 201), ...users.flatMap(() => [200, 200])]);
    expect(await exitCode).toBe(0);
    expect(server!.output()).toContain('SIGTERM received: closing');

    const ids = new Set((await database.query<{ id: string }>('SELECT id FROM entries')).map((row) => row.id));
    for (const { body } of adds) expect(ids.has(body.id)).toBe(true);
  }, 60_000);
});
