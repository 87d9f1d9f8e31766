import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEVERAL_PROCESSES_WARNING } from '../src/jobs/server-heartbeat';
import { createProcessDatabase, startServerProcess, type ProcessDatabase, type ServerProcess } from './helpers/server-process';
import { TEST_DB_KIND } from './helpers/test-database';

/**
 * Real server processes on one database (this run's kind: one SQLite file, or one
 * PostgreSQL schema). Without REDIS_URL each counts rate limits alone, so each warns as soon
 * as it sees another one running. Its own file: vitest.config.ts keeps several-servers.test.ts
 * (PostgreSQL and Redis) out of the SQLite project, and this one belongs in both.
 */
const REDIS_URL = process.env.LOCKIT_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const warning = SEVERAL_PROCESSES_WARNING[TEST_DB_KIND];

let database: ProcessDatabase;
const started: ServerProcess[] = [];
const start = async (env: Record<string, string> = {}) => {
  const server = await startServerProcess({
    ...database.env,
    SERVER_SECRET: 'several-processes-test-secret-0123456789abcdef',
    WEB_DIST_DIR: path.join(database.dataDir, 'no-web'),
    ...env,
  });
  started.push(server);
  return server;
};
const warnings = (server: ServerProcess) =>
  server
    .output()
    .split('\n')
    .filter((line) => line.includes(warning));

beforeAll(async () => {
  database = await createProcessDatabase();
});
afterAll(async () => {
  await Promise.all(started.map((server) => server.stop()));
  await database?.drop();
});

describe('several processes on one database', () => {
  it('warn that rate limits are counted per process, unless they share Redis, and not when alone', async () => {
    const first = await start();
    expect(warnings(first)).toEqual([]);

    const [second, withRedis] = await Promise.all([start(), start({ REDIS_URL })]);
    // The newcomer warns at start, before it answers, once per process it sees (the first, and
    // the one with Redis if that was up already); one sharing its limits through Redis does not.
    expect(warnings(second).length).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(warnings(second)[0]!)).toMatchObject({ level: 40, msg: warning });
    expect(warnings(withRedis)).toEqual([]);
    // The first warns at its next heartbeat, once for each process that appeared.
    const deadline = Date.now() + 10_000;
    while (warnings(first).length < 2 && Date.now() < deadline) await sleep(100);
    expect(warnings(first)).toHaveLength(2);
    // Three process starts: more than the project's 20 s on a busy machine.
  }, 45_000);
});
