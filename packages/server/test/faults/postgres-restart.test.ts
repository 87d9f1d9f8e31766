import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import {
  createVerifiedAccount,
  LogCodeInbox,
  startServerProcess,
  type ServerProcess,
  type VerifiedAccount,
} from '@lockit/test-support';
import { recordFigures } from '../helpers/figures';
import { encryptEntry } from '../helpers/entries';
import { startOwnPostgres, type OwnPostgres } from './own-postgres';

/**
 * PostgreSQL restarted (fast and immediate) and its connections terminated, under a write
 * load and while idle, against the real server process on a PostgreSQL of the test's own.
 * The bar: the server never exits, answers 503 (never another 5xx) only while the database
 * is away, is serving again within a second of its return, and loses no acknowledged write.
 */
const WRITERS = 4;
const RECOVERY_LIMIT_MS = 1_000;

let pg: OwnPostgres;
let server: ServerProcess;
let dataDir: string;
let owner: VerifiedAccount;

interface Tally {
  acknowledged: string[];
  statuses: Map<number, number>;
  networkErrors: number;
}
const tally: Tally = { acknowledged: [], statuses: new Map(), networkErrors: 0 };
const recoveries: Record<string, number> = {};

/** One write through the API, counted: its id is kept when the server acknowledged it. */
async function write(): Promise<number> {
  const entry = await encryptEntry(owner.account, { serviceName: 'Fault', username: 'load', password: 'p' });
  try {
    const answer = await owner.client.post(apiPaths.addEntry, entry);
    tally.statuses.set(answer.status, (tally.statuses.get(answer.status) ?? 0) + 1);
    if (answer.status === 201) tally.acknowledged.push(entry.id);
    if (answer.status === 503) {
      expect(answer.body.message).toBe('The database is unavailable. Try again in a moment.');
      expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    return answer.status;
  } catch {
    tally.networkErrors += 1;
    return 0;
  }
}

/** WRITERS clients adding entries in a loop (a short pause after a refusal) until stopped. */
function startLoad(): () => Promise<void> {
  let running = true;
  const writer = async () => {
    while (running) {
      const status = await write();
      if (status !== 201) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const writers = Array.from({ length: WRITERS }, writer);
  return async () => {
    running = false;
    await Promise.all(writers);
  };
}

/** From now (the database is accepting connections again) until the first acknowledged write. */
async function timeToRecover(label: string): Promise<void> {
  const start = performance.now();
  while ((await write()) !== 201) {
    if (performance.now() - start > 10_000) throw new Error(`${label}: no acknowledged write within 10 s`);
  }
  recoveries[label] = Math.round(performance.now() - start);
}

function countLines(output: string, texts: string[]): Record<string, number> {
  const lines = output.split('\n');
  return Object.fromEntries(texts.map((text) => [text, lines.filter((line) => line.includes(text)).length]));
}

function expectServerUp(): void {
  expect(server.child.exitCode, server.output().slice(-2000)).toBeNull();
}

describe('PostgreSQL restarts and terminated connections', () => {
  beforeAll(async () => {
    pg = await startOwnPostgres();
    dataDir = mkdtempSync(path.join(tmpdir(), 'lockit-pg-faults-'));
    const inbox = new LogCodeInbox();
    server = await startServerProcess({
      logLevel: 'info',
      onLine: inbox.onLine,
      env: {
        DATABASE_URL: pg.url,
        DATA_DIR: dataDir,
        SERVER_SECRET: 'postgres-faults-test-secret-0123456789abcdef',
        WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      },
    });
    owner = await createVerifiedAccount(server.url, inbox).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${server.output().slice(-3000)}`);
    });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await pg?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('under a write load: restart fast, restart immediate, terminated connections', async () => {
    const stop = startLoad();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await pg.restart('fast');
    await timeToRecover('restart fast, under load');
    await pg.restart('immediate');
    await timeToRecover('restart immediate, under load');
    const ended = await pg.terminateConnections();
    await timeToRecover('terminated connections, under load');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await stop();
    expect(ended).toBeGreaterThan(0);
    expectServerUp();
  }, 40_000);

  it('while idle: terminated connections, then a fast restart', async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The pool's idle connections die with nobody waiting on them: the case that killed it.
    expect(await pg.terminateConnections()).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expectServerUp();
    await timeToRecover('terminated connections, idle');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await pg.restart('fast');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expectServerUp();
    await timeToRecover('restart fast, idle');
  }, 30_000);

  it('lost nothing it acknowledged, crashed never, and answered no 5xx but 503', async () => {
    expectServerUp();
    const stored = await pg.query<{ id: string }>('select id from entries where id = any($1)', [tally.acknowledged]);
    const fiveHundreds = [...tally.statuses].filter(([status]) => status >= 500 && status !== 503);
    const figures = {
      writesAcknowledged: tally.acknowledged.length,
      acknowledgedWritesStored: stored.length,
      answers503: tally.statuses.get(503) ?? 0,
      otherServerErrors: fiveHundreds.reduce((sum, [, count]) => sum + count, 0),
      networkErrors: tally.networkErrors,
      serverCrashes: server.child.exitCode === null ? 0 : 1,
      logLines: countLines(server.output(), ['database unavailable', 'PostgreSQL connection lost', 'unexpected error']),
      recoveryMs: recoveries,
    };
    recordFigures('postgres restarts and terminated connections', figures);
    expect(figures.writesAcknowledged).toBeGreaterThan(0);
    expect(stored.length).toBe(tally.acknowledged.length);
    expect(fiveHundreds).toEqual([]);
    expect(tally.networkErrors).toBe(0);
    for (const [label, ms] of Object.entries(recoveries)) expect(ms, label).toBeLessThan(RECOVERY_LIMIT_MS);
    // Logged once per outage (or once a minute), not once per failed request or connection.
    expect(figures.answers503).toBeGreaterThan(0);
    expect(figures.logLines['database unavailable']).toBe(1);
    expect(figures.logLines['PostgreSQL connection lost']).toBeLessThanOrEqual(Object.keys(recoveries).length);
    expect(figures.logLines['unexpected error']).toBe(0);
    expect(server.output()).not.toContain('cannot rollback');
  });
});
