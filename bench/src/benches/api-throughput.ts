import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiPaths, CLIENT_HEADER, CLIENT_HEADER_VALUE } from '@lockit/contract';
import { createServerDatabase, startNodeProcess } from '@lockit/test-support';
import { CONNECTIONS, DURATION, measureLoad, type LoadFigures } from '../support/load';
import { median, printHeading, printTable, verdict, type Cell } from '../support/report';
import { addEntries, clientIp, createSignedInAccount, encryptEntry, inParallel, prepareKeys } from '../support/seed';
import { startLockitServer, startSeedingServer, type DbKind } from '../support/server-process';

const LIST_SIZE = 100;
const ADD_POOL = Number(process.env.BENCH_ADD_POOL ?? 60_000);
const BUDGET_RATIO = 0.6;
const BUDGET_P99_MS = 25;
/** Alternating bare and list runs; the verdict takes the median round. */
const ROUNDS = Number(process.env.BENCH_API_ROUNDS ?? 3);

/**
 * Issue 6, part 1: the authenticated vault list (100 entries) of one account and of one account
 * per connection, an add and a session verify at CONNECTIONS connections, beside a bare
 * Fastify route sending the list's bytes from memory.
 */
export async function apiThroughputBench(kinds: DbKind[] = ['sqlite', 'postgres']): Promise<void> {
  printHeading(`API throughput: ${CONNECTIONS} connections, ${DURATION} s per figure`);
  for (const kind of kinds) await benchOne(kind);
}

async function benchOne(kind: DbKind): Promise<void> {
  const db = await createServerDatabase(kind, 'lockit-bench-api');
  try {
    const { server: seeding, inbox } = await startSeedingServer(db);
    const keys = await prepareKeys('correct horse battery staple');
    const lister = await createSignedInAccount(seeding.url, inbox, keys, 'lister', clientIp(1));
    await addEntries(lister, keys.vaultKey, LIST_SIZE);
    // One adding account per connection, as many people adding at once: 50 connections
    // adding to one vault would measure that vault's row lock rather than the server.
    const adders: string[] = [];
    await inParallel(CONNECTIONS, 4, async (i) => {
      const adder = await createSignedInAccount(seeding.url, inbox, keys, `adder${i}`, clientIp(100 + i));
      adders[i] = adder.cookieHeader;
      // Their vaults hold LIST_SIZE entries too, for the list by many accounts: one cookie on
      // every connection lets the server share session lookups that real clients would not.
      await addEntries(adder, keys.vaultKey, LIST_SIZE, 4);
    });
    await seeding.stop();

    // Measuring: a fresh process, product defaults, no request logging.
    const server = await startLockitServer({ db });
    const listAnswer = await fetch(`${server.url}${apiPaths.listEntries}`, { headers: { cookie: lister.cookieHeader } });
    const listBytes = Buffer.from(await listAnswer.arrayBuffer());
    if (listAnswer.status !== 200) throw new Error(`list answered ${listAnswer.status}`);
    const bodyFile = join(db.dataDir, 'list-body.json');
    writeFileSync(bodyFile, listBytes);
    const bare = await startNodeProcess({
      script: 'bench/src/bare-server.ts',
      readyPath: '/bare',
      env: { BARE_BODY_FILE: bodyFile },
    });

    const pool = await addPool(keys.vaultKey);
    let nextAdd = 0;
    let nextAdder = 0;
    const post = { [CLIENT_HEADER]: CLIENT_HEADER_VALUE, 'content-type': 'application/json' };
    try {
      // Bare and list runs alternate, and each list run is held against the mean of the bare
      // runs on either side of it: the load generator shares the two cores with the server,
      // so a ceiling measured once, at a quiet or a busy moment, skews the ratio either way.
      const measureBare = (warm: boolean) => measureLoad({ url: `${bare.url}/bare` }, { pid: bare.pid, warm });
      const firstBare = await measureBare(false);
      const bares = [firstBare];
      const lists: LoadFigures[] = [];
      const manyLists: LoadFigures[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const warm = round > 0;
        lists.push(
          await measureLoad(
            { url: `${server.url}${apiPaths.listEntries}`, headers: { cookie: lister.cookieHeader } },
            { pid: server.pid, warm },
          ),
        );
        bares.push(await measureBare(true));
        // Fixed requests, one per account, that each connection sends in turn: a setupRequest
        // would rebuild every request in the load generator, which shares the server's cores.
        manyLists.push(
          await measureLoad(
            {
              url: server.url,
              requests: adders.map((cookie) => ({ method: 'GET', path: apiPaths.listEntries, headers: { cookie } })),
            },
            { pid: server.pid, warm },
          ),
        );
        bares.push(await measureBare(true));
      }
      const add = await measureLoad(
        {
          url: server.url,
          requests: [
            {
              method: 'POST',
              path: apiPaths.addEntry,
              headers: post,
              setupRequest: (request, context) => {
                context.cookie ??= adders[nextAdder++ % adders.length];
                return {
                  ...request,
                  headers: { ...post, cookie: String(context.cookie) },
                  body: pool[nextAdd++ % pool.length] ?? '',
                };
              },
            },
          ],
        },
        { pid: server.pid },
      );
      const verify = await measureLoad(
        {
          url: `${server.url}${apiPaths.verifySession}`,
          method: 'POST',
          headers: { [CLIENT_HEADER]: CLIENT_HEADER_VALUE, cookie: lister.cookieHeader },
        },
        { pid: server.pid },
      );
      // Round r's list ran between bare runs 2r and 2r+1, its 50-account list between 2r+1 and 2r+2.
      const bareAt = (index: number) => bares[Math.min(index, bares.length - 1)] ?? firstBare;
      const ceilingAround = (index: number) => average(bareAt(index), bareAt(index + 1));
      const listRatios = lists.map((f, r) => f.requestsPerSecond / ceilingAround(2 * r).requestsPerSecond);
      const manyRatios = manyLists.map((f, r) => f.requestsPerSecond / ceilingAround(2 * r + 1).requestsPerSecond);
      const ceiling = median(bares.map((f) => f.requestsPerSecond));
      const withinBudget = (ratios: number[], runs: LoadFigures[]) =>
        median(ratios) >= BUDGET_RATIO && median(runs.map((f) => f.p99)) < BUDGET_P99_MS;
      const roundRow = (name: string, f: LoadFigures, ratio: number | string): Cell[] => [
        name,
        f.requestsPerSecond,
        f.p50,
        f.p99,
        ratio,
        f.cpuMicrosPerRequest,
        f.failures,
      ];
      const header = ['route', 'req/s', 'p50 ms', 'p99 ms', '× bare', 'server CPU µs/req', 'non-2xx'];
      printTable(
        `${kind}: answers of ${listBytes.length} bytes (${LIST_SIZE} entries), ${ROUNDS} rounds of bare / list / bare / 50-account list`,
        header,
        [
          ...bares.map((f, i) => roundRow(`bare Fastify route, run ${i + 1}`, f, '')),
          ...lists.map((f, r) => roundRow(`GET vault list, round ${r + 1}`, f, listRatios[r] ?? Number.NaN)),
          ...manyLists.map((f, r) =>
            roundRow(`GET vault list, ${adders.length} accounts, round ${r + 1}`, f, manyRatios[r] ?? Number.NaN),
          ),
          roundRow(
            `POST add entry (${adders.length} accounts; add used ${Math.min(nextAdd, pool.length)} of ${pool.length} pre-encrypted entries)`,
            add,
            add.requestsPerSecond / ceiling,
          ),
          roundRow('POST verify session', verify, verify.requestsPerSecond / ceiling),
        ],
      );
      const summary = (name: string, ratios: number[], runs: LoadFigures[]): Cell[] => [
        name,
        median(runs.map((f) => f.requestsPerSecond)),
        median(runs.map((f) => f.p99)),
        median(ratios),
        `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`,
        median(runs.map((f) => f.cpuMicrosPerRequest)) / median(bares.map((f) => f.cpuMicrosPerRequest)),
        `≥ ${BUDGET_RATIO} × bare, p99 < ${BUDGET_P99_MS} ms`,
        verdict(withinBudget(ratios, runs)),
      ];
      printTable(
        `${kind}: medians of ${ROUNDS} rounds`,
        ['route', 'req/s', 'p99 ms', '× bare', 'range', 'CPU per request × bare', 'budget', ''],
        [
          ['bare Fastify route (ceiling)', ceiling, median(bares.map((f) => f.p99)), 1, '', 1, '', ''],
          summary(`GET vault list (${LIST_SIZE} entries)`, listRatios, lists),
          summary(`GET vault list, ${adders.length} accounts (${LIST_SIZE} entries each)`, manyRatios, manyLists),
        ],
      );
      if (nextAdd > pool.length) console.log(`note: the add pool ran out; ${nextAdd - pool.length} adds reused an id (409s)`);
    } finally {
      await bare.stop();
      await server.stop();
    }
  } finally {
    await db.drop();
  }
}

function average(a: LoadFigures, b: LoadFigures): LoadFigures {
  return {
    requestsPerSecond: (a.requestsPerSecond + b.requestsPerSecond) / 2,
    p50: (a.p50 + b.p50) / 2,
    p99: (a.p99 + b.p99) / 2,
    failures: a.failures === 'none' && b.failures === 'none' ? 'none' : `${a.failures}; ${b.failures}`,
    total: a.total + b.total,
    cpuMicrosPerRequest: (a.cpuMicrosPerRequest + b.cpuMicrosPerRequest) / 2,
  };
}

/** Bodies for the add figure, encrypted up front so the bench's own CPU goes to sending. */
async function addPool(vaultKey: CryptoKey): Promise<string[]> {
  const bodies: string[] = [];
  for (let n = 0; n < ADD_POOL; n++) bodies.push(JSON.stringify(await encryptEntry(vaultKey, n)));
  return bodies;
}
