import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiPaths, ENTRY_BATCH_MAX_ENTRIES, vaultChangesResponseSchema } from '@lockit/contract';
import {
  ApiClient,
  createServerDatabase,
  LogCodeInbox,
  sealEntry,
  startNodeProcess,
  startServerProcess,
} from '@lockit/test-support';
import { median, percentile, printHeading, printTable, type Cell } from '../support/report';
import { clientIp, createSignedInAccount, prepareKeys, realisticEntry, signIn } from '../support/seed';
import type { DbKind } from '../support/server-process';

const SECRET = 'bench-secret-bench-secret-bench-secret-0123';

const ENTRIES = Number(process.env.BENCH_SYNC_ENTRIES ?? 10_000);
const RUNS = Number(process.env.BENCH_SYNC_RUNS ?? 15);

/**
 * Decision 0066: what a device pays to learn of one edit made elsewhere in a vault of ENTRIES
 * entries: the catch-up through the change cursor (GET /api/vault/changes?since=N) against the
 * full list it would read otherwise, both right after the edit (the server's list cache is cold,
 * as it is for the first reader after a write). Beside each, the ceiling: a bare Fastify route
 * sending the same bytes from memory, measured in the same run.
 */
export async function liveSyncBench(kinds: DbKind[] = ['sqlite', 'postgres']): Promise<void> {
  printHeading(`Catch-up after one remote edit at ${ENTRIES.toLocaleString('en')} entries, ${RUNS} runs`);
  for (const kind of kinds) await benchOne(kind);
}

async function benchOne(kind: DbKind): Promise<void> {
  const db = await createServerDatabase(kind, 'lockit-bench-sync');
  try {
    // API only (no web build needed): at info level, so the development mailer's code is in its log.
    const inbox = new LogCodeInbox();
    const seeding = await startServerProcess({
      logLevel: 'info',
      env: { ...db.env, SERVER_SECRET: SECRET, TRUST_PROXY: '1' },
      onLine: inbox.onLine,
    });
    const keys = await prepareKeys('correct horse battery staple');
    const owner = await createSignedInAccount(seeding.url, inbox, keys, 'syncer', clientIp(1));
    const editable: Array<Awaited<ReturnType<typeof sealEntry>>> = [];
    for (let from = 0; from < ENTRIES; from += ENTRY_BATCH_MAX_ENTRIES) {
      const entries = await Promise.all(
        Array.from({ length: Math.min(ENTRY_BATCH_MAX_ENTRIES, ENTRIES - from) }, (_, i) =>
          sealEntry(keys.vaultKey, realisticEntry(from + i)),
        ),
      );
      if (editable.length === 0) editable.push(...entries.slice(0, RUNS + 2));
      await owner.expect(201, 'POST', apiPaths.entryBatch, { batchId: crypto.randomUUID(), entries });
    }
    await seeding.stop();

    // Measuring: a fresh process, API only, product defaults, no request logging.
    const server = await startServerProcess({
      env: { ...db.env, SERVER_SECRET: SECRET, TRUST_PROXY: '1' },
    });
    const device = owner.copyTo(server.url);
    const elsewhere = new ApiClient(server.url, clientIp(2));
    await signIn(elsewhere, 'syncer', keys.authKey);
    try {
      const timed = async (client: ApiClient, path: string) => {
        const started = performance.now();
        const answer = await fetch(`${server.url}${path}`, { headers: { cookie: client.cookieHeader } });
        const bytes = Buffer.from(await answer.arrayBuffer());
        if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}`);
        return { ms: performance.now() - started, bytes };
      };
      let cursor = cursorOf((await timed(device, `${apiPaths.vaultChanges}?since=0`)).bytes);
      await timed(device, apiPaths.listEntries); // warm-up
      const catchUps: number[] = [];
      const lists: number[] = [];
      let catchUpBytes = Buffer.alloc(0);
      let listBytes = Buffer.alloc(0);
      for (let run = 0; run < RUNS; run++) {
        const entry = editable[run]!;
        const edited = await sealEntry(keys.vaultKey, { ...realisticEntry(run), password: `edited ${run}` }, entry.id);
        await elsewhere.expect(200, 'PUT', apiPaths.updateEntry(entry.id), { ...edited, revision: 1 });
        const catchUp = await timed(device, `${apiPaths.vaultChanges}?since=${cursor}`);
        catchUps.push(catchUp.ms);
        catchUpBytes = catchUp.bytes;
        cursor = cursorOf(catchUp.bytes);
        const list = await timed(device, apiPaths.listEntries);
        lists.push(list.ms);
        listBytes = list.bytes;
      }
      const ceilings = await bareCeilings(db.dataDir, { catchUp: catchUpBytes, list: listBytes });
      const row = (name: string, bytes: number, times: number[], ceiling: number[]): Cell[] => [
        name,
        bytes,
        median(times),
        percentile(times, 90),
        median(ceiling),
        median(times) / Math.max(median(ceiling), 0.01),
      ];
      printTable(
        `Catch-up vs full list after one remote edit, ${kind}, ${ENTRIES} entries (ms; ceiling: bare Fastify, same bytes from memory)`,
        ['measure', 'bytes', 'median', 'p90', 'ceiling median', 'x ceiling'],
        [
          row('GET /api/vault/changes?since=<cursor> (one entry)', catchUpBytes.length, catchUps, ceilings.catchUp),
          row('GET /api/passwords/show/user-passwords (whole vault, cache cold)', listBytes.length, lists, ceilings.list),
        ],
      );
      console.log(
        `catch-up: ${(listBytes.length / catchUpBytes.length).toFixed(0)}x fewer bytes, ${(median(lists) / median(catchUps)).toFixed(1)}x faster than the full list`,
      );
    } finally {
      await server.stop();
    }
  } finally {
    await db.drop();
  }
}

function cursorOf(bytes: Buffer): number {
  return vaultChangesResponseSchema.parse(JSON.parse(bytes.toString('utf8'))).data.cursor;
}

/** RUNS sequential GETs of each body from a bare Fastify process of its own. */
async function bareCeilings(
  dir: string,
  bodies: Record<'catchUp' | 'list', Buffer>,
): Promise<Record<'catchUp' | 'list', number[]>> {
  const result = { catchUp: [] as number[], list: [] as number[] };
  for (const name of ['catchUp', 'list'] as const) {
    const file = join(dir, `bare-${name}.json`);
    writeFileSync(file, bodies[name]);
    const bare = await startNodeProcess({
      script: 'bench/src/bare-server.ts',
      readyPath: '/bare',
      env: { BARE_BODY_FILE: file },
    });
    try {
      for (let i = 0; i < RUNS + 2; i++) {
        const started = performance.now();
        await (await fetch(`${bare.url}/bare`)).arrayBuffer();
        if (i >= 2) result[name].push(performance.now() - started);
      }
    } finally {
      await bare.stop();
    }
  }
  return result;
}
