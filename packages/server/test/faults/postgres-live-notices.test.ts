import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import {
  createVerifiedAccount,
  LogCodeInbox,
  recordEventStream,
  startServerProcess,
  type ServerProcess,
  type VerifiedAccount,
} from '@lockit/test-support';
import { encryptEntry } from '../helpers/entries';
import { startOwnPostgres, type OwnPostgres } from './own-postgres';

/**
 * Live notices over PostgreSQL LISTEN/NOTIFY (no Redis) when the database goes away
 * (decision 0066): on a PostgreSQL of this file's own, restarted and with its connections
 * terminated, open streams end with reason `unavailable` instead of hanging silently, and once
 * the database is back streams open and carry notices again.
 */
let pg: OwnPostgres;
let server: ServerProcess;
let dataDir: string;
let owner: VerifiedAccount;

beforeAll(async () => {
  pg = await startOwnPostgres();
  dataDir = mkdtempSync(path.join(tmpdir(), 'lockit-pg-live-'));
  const inbox = new LogCodeInbox();
  server = await startServerProcess({
    logLevel: 'info',
    onLine: inbox.onLine,
    env: {
      DATABASE_URL: pg.url,
      DATA_DIR: dataDir,
      SERVER_SECRET: 'postgres-live-test-secret-0123456789abcdef',
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      LIVE_HEARTBEAT_SECONDS: '1',
    },
  });
  owner = await createVerifiedAccount(server.url, inbox);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await pg?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A stream that reached `ready`, retrying while the server refuses (503: its LISTEN is not back yet). */
async function openStream(): Promise<ReturnType<typeof recordEventStream>> {
  for (let tries = 0; tries < 100; tries += 1) {
    const stream = recordEventStream(owner.client, apiPaths.vaultEvents);
    const outcome = await Promise.race([
      stream.waitFor((event) => event.type === 'ready', 5_000).then(() => 'ready' as const),
      stream.waitForError(5_000).then(() => 'refused' as const),
    ]);
    if (outcome === 'ready') return stream;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no stream within 100 tries:\n${server.output().slice(-2000)}`);
}

async function expectNoticeOfAWrite(stream: ReturnType<typeof recordEventStream>): Promise<void> {
  const body = await encryptEntry(owner.account, { serviceName: 'S', username: 'u', password: 'p' });
  for (let tries = 0; tries < 50; tries += 1) {
    const answer = await owner.client.request('POST', apiPaths.addEntry, body);
    if (answer.status === 201) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stream.waitFor((event) => event.type === 'change' && JSON.parse(event.data).id === body.id);
}

describe('live notices when PostgreSQL goes away', () => {
  it('ends open streams with "unavailable" on a restart, and serves notices again once it is back', async () => {
    const before = await openStream();
    await expectNoticeOfAWrite(before);
    await pg.restart('fast');
    const ended = await before.waitFor((event) => event.type === 'end', 10_000);
    expect(JSON.parse(ended.data)).toEqual({ reason: 'unavailable' });
    const after = await openStream();
    await expectNoticeOfAWrite(after);
    after.close();
  }, 60_000);

  it('ends open streams with "unavailable" when the connections are terminated', async () => {
    const stream = await openStream();
    expect(await pg.terminateConnections()).toBeGreaterThan(0);
    expect(JSON.parse((await stream.waitFor((event) => event.type === 'end', 10_000)).data)).toEqual({ reason: 'unavailable' });
    const again = await openStream();
    await expectNoticeOfAWrite(again);
    again.close();
    expect(server.child.exitCode).toBeNull();
  }, 60_000);
});
