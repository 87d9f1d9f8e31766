import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { apiPaths, CLIENT_HEADER, CLIENT_HEADER_VALUE } from '@lockit/contract';
import { DEFAULT_KDF_PARAMS, deriveKeysFromPassword, randomSalt } from '@lockit/crypto';
// The bench times exactly what the login route calls.
import { hashAuthKey, verifyAuthKey } from '@lockit/server/internals';
import { createServerDatabase } from '@lockit/test-support';
import { median, percentile, printHeading, printTable, verdict, type Cell } from '../support/report';
import { clientIp, createSignedInAccount, inParallel, prepareKeys } from '../support/seed';
import { startLockitServer, startSeedingServer } from '../support/server-process';

const BUDGET_SERVER_MS = 50;
const VERIFY_RUNS = Number(process.env.BENCH_VERIFY_RUNS ?? 30);
const LOGIN_SECONDS = Number(process.env.BENCH_LOGIN_SECONDS ?? 10);
const ACCOUNTS = 8;
const KDF_RUNS = 5;

async function timeEach(runs: number, task: (i: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await task(i);
    times.push(performance.now() - start);
  }
  return times;
}

/** CPU seconds (user + system, every thread: Argon2 runs on libuv's pool) a process has used. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime and stime: fields 14 and 15 of stat(5)
  return ticks / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
}

const row = (name: string, times: number[], perSecond: Cell, budget = '', ok?: boolean): Cell[] => [
  name,
  times.length,
  median(times),
  percentile(times, 90),
  Math.max(...times),
  perSecond,
  budget,
  ok === undefined ? '' : verdict(ok),
];

/**
 * Issue 6, part 2: what one sign-in costs the server (Argon2id of the authKey, alone and as
 * the whole login request) and how many a core can do; the client KDF in Node for reference.
 */
export async function signInCostBench(): Promise<void> {
  printHeading('Sign-in cost: server Argon2id per login, logins/s per core, client KDF (Node)');
  const keys = await prepareKeys('correct horse battery staple');

  // In process: the very hash and verify the server runs, nothing around them.
  const hash = await hashAuthKey(keys.authKey);
  const serverParams = /\$(m=[^$]+)\$/.exec(hash)?.[1] ?? hash.slice(0, 30); // e.g. m=19456,p=1,t=2
  await verifyAuthKey(hash, keys.authKey); // warm-up: the first call allocates Argon2's memory
  const verify = await timeEach(VERIFY_RUNS, async () => {
    if (!(await verifyAuthKey(hash, keys.authKey))) throw new Error('verify failed');
  });
  const hashing = await timeEach(10, () => hashAuthKey(keys.authKey));

  const db = await createServerDatabase('sqlite', 'lockit-bench-sign-in');
  try {
    // Accounts through the API (sign-up, emailed code); the server hashes each authKey itself.
    const { server: seeding, inbox } = await startSeedingServer(db);
    await inParallel(ACCOUNTS, 2, async (i) => {
      await createSignedInAccount(seeding.url, inbox, keys, `signer${i}`, clientIp(1 + i));
    });
    await seeding.stop();

    // Measuring: a fresh process (empty rate limiters), no request logging. Every request
    // comes from its own X-Forwarded-For address, as many people signing in behind a proxy,
    // so the per-IP limits never answer 429 and the figure is the login's own cost.
    const server = await startLockitServer({ db, env: { TRUST_PROXY: '1' } });
    let nextIp = 1000;
    const post = async (path: string, body: unknown) => {
      const answer = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: {
          [CLIENT_HEADER]: CLIENT_HEADER_VALUE,
          'content-type': 'application/json',
          'x-forwarded-for': clientIp(nextIp++),
        },
        body: JSON.stringify(body),
      });
      await answer.arrayBuffer();
      if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}`);
    };
    const login = (i: number) => post(apiPaths.login, { username: `signer${i % ACCOUNTS}`, password: keys.authKey });
    try {
      await timeEach(5, login); // warm-up: JIT, the database connection, Argon2's memory
      const prelogin = await timeEach(20, (i) => post(apiPaths.prelogin, { username: `signer${i % ACCOUNTS}` }));
      // Sequential logins for LOGIN_SECONDS: one request at a time keeps at most one core busy.
      const logins: number[] = [];
      const cpuBefore = cpuSeconds(server.pid);
      const started = performance.now();
      while (performance.now() - started < LOGIN_SECONDS * 1000) {
        const start = performance.now();
        await login(logins.length);
        logins.push(performance.now() - start);
      }
      const elapsed = (performance.now() - started) / 1000;
      const cpuPerLogin = ((cpuSeconds(server.pid) - cpuBefore) * 1000) / logins.length;

      const kdf = await clientKdf();
      printTable(
        `Sign-in cost (ms). Server Argon2id ${serverParams}; client KDF ${DEFAULT_KDF_PARAMS.algorithm} m=${DEFAULT_KDF_PARAMS.memoryKiB},t=${DEFAULT_KDF_PARAMS.iterations},p=${DEFAULT_KDF_PARAMS.parallelism}`,
        ['measure', 'n', 'median', 'p90', 'max', 'per second', 'budget', ''],
        [
          row(
            'server: Argon2id verify of the authKey, in process',
            verify,
            1000 / median(verify),
            `< ${BUDGET_SERVER_MS} ms`,
            median(verify) < BUDGET_SERVER_MS,
          ),
          row('server: Argon2id hash (sign-up, password change), in process', hashing, 1000 / median(hashing)),
          row('POST /api/users/prelogin, end to end', prelogin, 1000 / median(prelogin)),
          row(
            `POST /api/users/login, end to end, sequential for ${LOGIN_SECONDS} s`,
            logins,
            logins.length / elapsed,
            `< ${BUDGET_SERVER_MS} ms`,
            median(logins) < BUDGET_SERVER_MS,
          ),
          [
            'server CPU per login (process user+system time / logins)',
            logins.length,
            cpuPerLogin,
            '',
            '',
            1000 / cpuPerLogin,
            `< ${BUDGET_SERVER_MS} ms`,
            verdict(cpuPerLogin < BUDGET_SERVER_MS),
          ],
          row(
            'client KDF in Node: deriveKeysFromPassword, default parameters',
            kdf,
            1000 / median(kdf),
            'reference (browser: own bench)',
          ),
        ],
      );
      console.log(
        `logins/s per core: ${(logins.length / elapsed).toFixed(1)} sequential on one server process; ${(1000 / cpuPerLogin).toFixed(1)} from its CPU time per login`,
      );
    } finally {
      await server.stop();
    }
  } finally {
    await db.drop();
  }
}

/** The client's KDF as the web app runs it, here in Node (hash-wasm): a reference, not the browser. */
async function clientKdf(): Promise<number[]> {
  await deriveKeysFromPassword('correct horse battery staple', randomSalt(), DEFAULT_KDF_PARAMS);
  return timeEach(KDF_RUNS, () => deriveKeysFromPassword('correct horse battery staple', randomSalt(), DEFAULT_KDF_PARAMS));
}
