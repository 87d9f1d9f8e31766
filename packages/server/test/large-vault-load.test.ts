import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import { Worker } from 'node:worker_threads';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { signedInUser } from './helpers/accounts';
import { encryptItem } from './helpers/entries';
import { recordFigures } from './helpers/figures';
import { httpRequest, ms, percentile } from './helpers/latency';
import { useTestApp } from './helpers/test-app';

/**
 * One account with a very large vault listing it in a loop (from one tab, then from eight)
 * must not slow another user's cheap request: before, each fetch of a 20,000-entry list was
 * read and serialized again on the event loop (p99 of another user's request 20 ms → 0.9 s
 * with one tab, 4-5 s with eight). The tabs run on worker threads so that only the server
 * shares this thread with the measurement.
 */
const ENTRIES = 20_000;
/**
 * Before: 0.6-4.6 s at p99 with eight tabs. The bound leaves room for a shared 2-core
 * machine, where this test's own eight tab threads compete with the server for the cores:
 * 250 ms, or ten times the quiet p99 measured just before the phase when other work already
 * slows everything down (the quiet p99 alone reached 100 ms while other suites ran).
 */
const P99_BOUND_MS = 250;
const boundFor = (quietP99: number) => Math.max(P99_BOUND_MS, 10 * quietP99);
const PHASE_MS = 3_000;
/**
 * Samples per phase at least: with fewer than 101, the nearest-rank p99 is the single slowest
 * answer (one save's re-serialization on a slow machine), not the tail. A phase runs past
 * PHASE_MS until it has them, at most MAX_PHASE_MS.
 */
const MIN_SAMPLES = 101;
const MAX_PHASE_MS = 20_000;
/**
 * Three phases, each of at most two attempts of a quiet second and a loaded phase that may run
 * to MAX_PHASE_MS on a loaded machine, and stopping the tabs: the default 20 s timeout cut a
 * run whose figures met the bound.
 */
const TEST_MS = 3 * 2 * (1_000 + MAX_PHASE_MS + 5_000);

const h = useTestApp();
let base: string;
let bigCookie: string;
let smallCookie: string;
let listBytes = 0;

/** A ciphertext shaped like the web app's (`v1.<iv>.<ct>`), `length` characters long, random. */
function ciphertextLike(model: string | null): string | null {
  if (model === null) return null;
  const [version, iv, body] = model.split('.');
  const random = (n: number) =>
    randomBytes(Math.ceil((n * 3) / 4) + 3)
      .toString('base64url')
      .slice(0, n);
  return `${version}.${random(iv!.length)}.${random(body!.length)}`;
}

let bigUserId: string;

/** What every entry write does to the vault revision (here as another process would, in the database). */
async function bumpRevision(): Promise<void> {
  await h.db
    .updateTable('users')
    .set((eb) => ({ vault_revision: eb('vault_revision', '+', 1) }))
    .where('id', '=', bigUserId)
    .execute();
}

beforeAll(async () => {
  const big = await signedInUser(h);
  const small = await signedInUser(h);
  bigCookie = `lockit_access=${big.client.jar.get('lockit_access')!}`;
  smallCookie = `lockit_access=${small.client.jar.get('lockit_access')!}`;
  const { id: userId } = await h.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', big.account.username)
    .executeTakeFirstOrThrow();
  bigUserId = userId;

  // One real sealed item gives the field sizes; every stored entry gets random bytes of those sizes.
  const model = await encryptItem(big.account, {
    serviceName: 'Example Mail',
    username: 'someone@example.com',
    password: 'correct horse battery staple',
    url: 'https://mail.example.com/login',
    notes: 'Recovery codes are in the safe.',
    overview: { title: 'Example Mail', subtitle: 'someone@example.com', urls: ['https://mail.example.com/login'] },
  });
  const now = Date.now();
  const rows = Array.from({ length: ENTRIES }, (_, n) => ({
    id: randomUUID(),
    user_id: userId,
    service_name: ciphertextLike(model.serviceName)!,
    username: ciphertextLike(model.username)!,
    password: ciphertextLike(model.password)!,
    url: ciphertextLike(model.url ?? null),
    notes: ciphertextLike(model.notes ?? null),
    overview: ciphertextLike(model.overview ?? null),
    details: null,
    revision: 1,
    created_at: now - ENTRIES + n,
    updated_at: now - ENTRIES + n,
    deleted_at: null,
  }));
  for (let at = 0; at < rows.length; at += 400) {
    await h.db
      .insertInto('entries')
      .values(rows.slice(at, at + 400))
      .execute();
  }
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  const first = await httpRequest(`${base}${apiPaths.listEntries}`, { headers: { cookie: bigCookie } });
  expect(first.status).toBe(200);
  expect((JSON.parse(first.body.toString()) as { data: unknown[] }).data).toHaveLength(ENTRIES);
  listBytes = first.body.length;
}, 120_000);

/** `tabs` worker threads fetching the whole list in a loop until told to stop; resolves with the fetch count. */
function listInALoop(tabs: number): { stop: () => Promise<number> } {
  const code = `
    const http = require('node:http');
    const { parentPort, workerData } = require('node:worker_threads');
    let running = true;
    let fetched = 0;
    parentPort.on('message', () => { running = false; });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const once = () => http.get(workerData.url, { agent, headers: { cookie: workerData.cookie } }, (response) => {
      response.on('data', () => {});
      response.on('end', () => {
        fetched += 1;
        if (running) once(); else { agent.destroy(); parentPort.postMessage(fetched); }
      });
    }).on('error', (error) => { throw error; });
    once();
  `;
  const workers = Array.from(
    { length: tabs },
    () => new Worker(code, { eval: true, workerData: { url: `${base}${apiPaths.listEntries}`, cookie: bigCookie } }),
  );
  return {
    async stop() {
      const counts = await Promise.all(
        workers.map(
          (worker) =>
            new Promise<number>((resolve, reject) => {
              worker.once('message', (count: number) => resolve(count));
              worker.once('error', reject);
              worker.postMessage('stop');
            }),
        ),
      );
      await Promise.all(workers.map((worker) => worker.terminate()));
      return counts.reduce((a, b) => a + b, 0);
    },
  };
}

/**
 * Another user's cheap request (their profile), every 5 ms after the last answer, for
 * `durationMs` and until it has `minSamples` (at most MAX_PHASE_MS). Timed from when it was due, not from when a late timer let it start: a
 * blocked event loop delays the timer too, and the user waits for both.
 */
async function cheapRequestLatencies(durationMs: number, minSamples = 0): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const samples: number[] = [];
  const started = performance.now();
  const until = started + durationMs;
  const enough = () => samples.length >= minSamples || performance.now() - started >= MAX_PHASE_MS;
  while (performance.now() < until || !enough()) {
    const due = performance.now() + 5;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const answer = await httpRequest(`${base}${apiPaths.profile}`, { headers: { cookie: smallCookie }, agent });
    expect(answer.status).toBe(200);
    samples.push(performance.now() - due);
  }
  agent.destroy();
  return samples;
}

interface Phase {
  p50: number;
  p99: number;
  samples: number;
  listsFetched: number;
  /** The p99 of the quiet second just before, and the bound it gives. */
  quietP99: number;
  boundMs: number;
  attempts: number;
}

/**
 * One phase: a quiet second, then `tabs` tabs listing (and another device saving, if `writes`)
 * while another user's cheap request is timed. The bound comes from the quiet second just
 * before, not from one at the start: on a shared 2-core machine other suites start and end
 * during this test, and a quiet p99 of 29 ms at the start was followed by loaded phases on a
 * machine several times busier. A phase that misses its bound runs once more: a passing burst
 * of other work misses once, while the defect this guards (the list serialized on the event
 * loop: p99 of 0.6-4.6 s) misses every time.
 */
async function runPhase(tabs: number, writes: boolean): Promise<Phase> {
  let phase: Phase | undefined;
  for (let attempt = 1; attempt <= 2; attempt++) {
    const quietP99 = percentile(await cheapRequestLatencies(1_000), 99);
    const load = listInALoop(tabs);
    const writer = writes ? setInterval(() => void bumpRevision(), 250) : undefined;
    await new Promise((resolve) => setTimeout(resolve, 300)); // the tabs are fetching
    const samples = await cheapRequestLatencies(PHASE_MS, MIN_SAMPLES);
    clearInterval(writer);
    const listsFetched = await load.stop();
    phase = {
      p50: ms(percentile(samples, 50)),
      p99: ms(percentile(samples, 99)),
      samples: samples.length,
      listsFetched,
      quietP99: ms(quietP99),
      boundMs: ms(boundFor(quietP99)),
      attempts: attempt,
    };
    if (phase.p99 < phase.boundMs) break;
  }
  return phase!;
}

describe(`a ${ENTRIES.toLocaleString('en')}-entry vault listed in a loop`, () => {
  it(
    `another user's cheap request stays under ${P99_BOUND_MS} ms (or 10× its quiet p99) at p99, with 1 and with 8 tabs listing`,
    async () => {
      const phases = {
        tabs1: await runPhase(1, false),
        tabs8: await runPhase(8, false),
        // Another device saving every 250 ms: each save bumps the vault revision, so the list is read and serialized again.
        tabs8WithWrites: await runPhase(8, true),
      };
      recordFigures('large-vault-load', { entries: ENTRIES, listBytes, ...phases });
      for (const phase of Object.values(phases)) {
        expect(phase.listsFetched).toBeGreaterThan(0);
        expect(phase.p99).toBeLessThan(phase.boundMs);
      }
    },
    TEST_MS,
  );
});
