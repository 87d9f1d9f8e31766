import { DEFAULT_KDF_PARAMS } from '@lockit/crypto';
import type { Browser } from 'playwright-core';
import { launchBrowser, newProbedPage } from '../support/browser';
import { createServerDatabase, type ServerDatabase } from '@lockit/test-support';
import { kdfRuns, type ShownTimes, type VaultLoad } from '../support/page-probes';
import { describeMachine, median, percentile, printHeading, printTable, verdict, type Cell } from '../support/report';
import {
  addRealisticItems,
  clientIp,
  createSignedInAccount,
  editRepeatedly,
  prepareKeys,
  realisticSearchText,
} from '../support/seed';
import { startLockitServer, startSeedingServer, type ServerProcess } from '../support/server-process';
import {
  loadAndUnlock,
  openBareSearchPage,
  openVaultFromHeader,
  signInThroughUi,
  timeChanges,
  timeSearchKeystrokes,
  type ChangeTimes,
} from '../support/vault-ui';

const PASSWORD = 'correct horse battery staple';
const KDF_PASSWORD = 'correct horse battery staple at the defaults';
const KDF_USER = 'kdfdefaults';
/** Repeated figures: a 2-core machine shared with other work makes single runs noisy. */
const UNLOCK_RUNS = runsFromEnv();
const CHANGE_ROUNDS = 3;
const KDF_RUNS = 3;
/** Typed one key at a time: a username as a person would search for it. */
const SEARCH_QUERY = 'user123@';
const BUDGET = { paintedMs: 1000, keyMs: 16, changeMs: 100, taskMs: 200, kdfMs: 1500, domSpread: 0.1 };

const vaultUser = (size: number) => `vault${size}`;

/** How many rows each typed prefix must leave in a vault of `size` seeded items (one query word). */
function matchesIn(size: number): (typed: string) => number {
  return (typed) => {
    const word = typed.trim().toLowerCase();
    let count = 0;
    for (let n = 0; n < size; n++) if (realisticSearchText(n).includes(word)) count++;
    return count;
  };
}

/** Entries with a long history: every LONG_HISTORY_EVERY-th gets HISTORY_EDITS saves. */
const LONG_HISTORY_EVERY = 500;
const HISTORY_EDITS = 10;

/**
 * Issue 6, part 3 (and the client KDF of part 2): large vaults in Chromium against the built
 * app on the production server. Figures come from the app's own performance marks, taken
 * AFTER the KDF (seeded accounts use the floor params so unlocking them is quick), and from
 * probes installed in the page before any app script runs.
 */
export async function vaultBrowserBench(sizes: number[] = sizesFromEnv()): Promise<void> {
  printHeading(`Large vaults in Chromium (${sizes.map((size) => size.toLocaleString('en')).join(' and ')} entries)`);
  const db = await createServerDatabase('sqlite', 'lockit-bench-vault');
  let server: ServerProcess | undefined;
  let browser: Browser | undefined;
  try {
    await seed(db, sizes);
    // Measuring: a fresh process with the product's defaults, no request logging.
    server = await startLockitServer({ db });
    browser = await launchBrowser();
    const figures: SizeFigures[] = [];
    for (const size of sizes) figures.push(await measureVault(browser, server.url, size));
    const bare = await measureBareSearch(browser, server.url);
    const kdf = await measureKdf(browser, server.url);
    printVaultTable(sizes, figures);
    printKeyCeilingTable(sizes, figures, bare);
    printKdfTable(kdf);
    // The machine is shared: the load at the end tells whether it changed during the run.
    console.log(`\nAt the end: ${describeMachine()}`);
  } finally {
    await browser?.close();
    await server?.stop();
    await db.drop();
  }
}

/**
 * BENCH_VAULT_RUNS: unlocks per size, each followed by one series of search keys (default 6:
 * 48 keys, so the p95 is not just the second-slowest key of a few).
 */
function runsFromEnv(): number {
  const runs = Number(process.env.BENCH_VAULT_RUNS ?? 6);
  if (!Number.isInteger(runs) || runs < 1) {
    throw new Error(`BENCH_VAULT_RUNS must be a whole number above 0; got "${process.env.BENCH_VAULT_RUNS}"`);
  }
  return runs;
}

/** BENCH_VAULT_SIZES (e.g. `10000`) measures other vault sizes than 1,000 and 10,000. */
function sizesFromEnv(): number[] {
  const sizes = (process.env.BENCH_VAULT_SIZES ?? '1000,10000').split(',').map(Number);
  if (sizes.some((size) => !Number.isInteger(size) || size < 1)) {
    throw new Error(
      `BENCH_VAULT_SIZES must be whole numbers above 0, separated by commas; got "${process.env.BENCH_VAULT_SIZES}"`,
    );
  }
  return sizes;
}

/** One account per size, plus one whose keys use the default KDF params. */
async function seed(db: ServerDatabase, sizes: number[]): Promise<void> {
  const { server: seeding, inbox } = await startSeedingServer(db);
  try {
    const keys = await prepareKeys(PASSWORD);
    for (const [i, size] of sizes.entries()) {
      const started = Date.now();
      const session = await createSignedInAccount(seeding.url, inbox, keys, vaultUser(size), clientIp(1 + i));
      // A realistic mix of the item format (seed.ts realisticItem), so no entry needs the
      // upgrade the app runs after unlock for entries saved before items.
      const stored = await addRealisticItems(session, keys.vaultKey, size, 16);
      for (let n = 0; n < size; n += LONG_HISTORY_EVERY)
        await editRepeatedly(session, keys.vaultKey, stored[n]!, n, HISTORY_EDITS);
      console.log(`seeded ${size.toLocaleString('en')} entries in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    const kdfKeys = await prepareKeys(KDF_PASSWORD, { ...DEFAULT_KDF_PARAMS });
    await createSignedInAccount(seeding.url, inbox, kdfKeys, KDF_USER, clientIp(1_000));
  } finally {
    await seeding.stop();
  }
}

interface SizeFigures {
  signIn: VaultLoad;
  unlocks: VaultLoad[];
  keys: ShownTimes[];
  changes: ChangeTimes[];
}

/**
 * Sign-in then the vault link (key held); reloads with Unlock, each followed by the search
 * typed once (so every series of keys starts on a freshly loaded page, as a person's first
 * search does); then changes.
 */
async function measureVault(browser: Browser, baseUrl: string, size: number): Promise<SizeFigures> {
  const page = await newProbedPage(browser, baseUrl);
  try {
    await signInThroughUi(page, vaultUser(size), PASSWORD);
    const signIn = await openVaultFromHeader(page);
    const unlocks: VaultLoad[] = [];
    const keys: ShownTimes[] = [];
    for (let run = 0; run < UNLOCK_RUNS; run++) {
      unlocks.push(await loadAndUnlock(page, PASSWORD, 'reload'));
      // Before the changes: the expected match counts are those of the seeded entries only.
      const typed = await traced(browser, `search-${size}-${run + 1}`, () =>
        timeSearchKeystrokes(page, SEARCH_QUERY, matchesIn(size)),
      );
      // BENCH_VAULT_DETAIL: every key (in the DOM / work / painted frame, ms), to see the tail.
      if (process.env.BENCH_VAULT_DETAIL) {
        console.log(
          `${size} entries, unlock ${run + 1}: ${typed.map((t, i) => `${SEARCH_QUERY.slice(0, i + 1)} ${t.dom.toFixed(1)}/${t.work.toFixed(1)}/${t.frame.toFixed(1)}`).join(', ')}`,
        );
      }
      keys.push(...typed);
    }
    const changes: ChangeTimes[] = [];
    for (let round = 0; round < CHANGE_ROUNDS; round++) changes.push(await timeChanges(page, round));
    return { signIn, unlocks, keys, changes };
  } finally {
    await page.context().close();
  }
}

/**
 * BENCH_VAULT_TRACE=<dir>: a Chromium trace of each series of search keys,
 * `<dir>/search-<size>-<run>.json`, for trace-summary.ts (where a slow key's time goes);
 * BENCH_TRACE_CATEGORIES (comma-separated) replaces the default categories. Tracing slows the
 * page; the figures of a traced run are not comparable with an untraced one.
 */
const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing'];

async function traced<T>(browser: Browser, name: string, work: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_VAULT_TRACE;
  if (!dir) return work();
  const categories = process.env.BENCH_TRACE_CATEGORIES?.split(',') ?? TRACE_CATEGORIES;
  await browser.startTracing(undefined, { path: `${dir}/${name}.json`, categories });
  try {
    return await work();
  } finally {
    await browser.stopTracing();
  }
}

/** The search keys of measureVault, as often, in a page holding only a search field. */
async function measureBareSearch(browser: Browser, baseUrl: string): Promise<ShownTimes[]> {
  const page = await newProbedPage(browser, baseUrl);
  try {
    const keys: ShownTimes[] = [];
    for (let run = 0; run < UNLOCK_RUNS; run++) {
      if (run === 0) await openBareSearchPage(page);
      else await page.reload();
      keys.push(...(await timeSearchKeystrokes(page, SEARCH_QUERY, () => 0)));
    }
    return keys;
  } finally {
    await page.context().close();
  }
}

interface KdfFigures {
  workerMs: number[];
  unlockToKeyMs: number[];
}

/** Three unlocks of an account at the default params, each a fresh page load. */
async function measureKdf(browser: Browser, baseUrl: string): Promise<KdfFigures> {
  const page = await newProbedPage(browser, baseUrl);
  try {
    await signInThroughUi(page, KDF_USER, KDF_PASSWORD);
    const figures: KdfFigures = { workerMs: [], unlockToKeyMs: [] };
    for (let run = 0; run < KDF_RUNS; run++) {
      const load = await loadAndUnlock(page, KDF_PASSWORD, run === 0 ? 'goto' : 'reload');
      const runs = await kdfRuns(page);
      // One worker run per unlock, or the app derived somewhere else than the worker path.
      if (runs.length !== 1) throw new Error(`expected one KDF worker run per unlock, saw ${runs.length}`);
      figures.workerMs.push(runs[0] ?? Number.NaN);
      figures.unlockToKeyMs.push(load.submitToStart);
    }
    return figures;
  } finally {
    await page.context().close();
  }
}

interface Figure {
  name: string;
  /** One per size. */
  values: number[];
  budget: string;
  /** Whether the values meet the budget; absent where the figure has no budget of its own. */
  test?: (values: number[]) => boolean;
}
type Budget = Required<Pick<Figure, 'budget' | 'test'>>;

const worst = (values: number[]) => Math.max(...values);
const p95 = (values: number[]) => percentile(values, 95);
const under = (limit: number) => (values: number[]) => values.every((value) => value < limit);

function printVaultTable(sizes: number[], all: SizeFigures[]): void {
  const per = (pick: (f: SizeFigures) => number) => all.map(pick);
  const unlocks = (pick: (u: VaultLoad) => number, of: (values: number[]) => number) => per((f) => of(f.unlocks.map(pick)));
  const keys = (pick: (t: ShownTimes) => number, of: (values: number[]) => number) => per((f) => of(f.keys.map(pick)));
  const change = (kind: keyof ChangeTimes, pick: (t: ShownTimes) => number) =>
    per((f) => median(f.changes.map((c) => pick(c[kind]))));
  const frame = (t: ShownTimes) => t.frame;
  const dom = (t: ShownTimes) => t.dom;
  const work = (t: ShownTimes) => t.work;
  const [paintedBudget, keyBudget, changeBudget, taskBudget] = [
    BUDGET.paintedMs,
    BUDGET.keyMs,
    BUDGET.changeMs,
    BUDGET.taskMs,
  ].map((ms) => ({
    budget: `< ${ms} ms`,
    test: under(ms),
  })) as [Budget, Budget, Budget, Budget];
  // A key's budget is one frame of work: "under one frame per keystroke" (issue 3). The
  // figures with the wait for the frame boundary (up to 16.7 ms at 60 Hz, whatever the app
  // does) and "in the DOM" (the share before style, layout and paint) are shown beside it.
  const info = { budget: '—' };
  const keyCount = `${UNLOCK_RUNS * SEARCH_QUERY.length} keys`;
  const rows: Figure[] = [
    {
      name: `Unlock: load-start → list painted, median of ${UNLOCK_RUNS} (ms)`,
      values: unlocks((u) => u.toPainted, median),
      ...paintedBudget,
    },
    {
      name: `Unlock: load-start → list painted, worst of ${UNLOCK_RUNS} (ms)`,
      values: unlocks((u) => u.toPainted, worst),
      ...paintedBudget,
    },
    {
      name: `Unlock: load-start → decrypted, median of ${UNLOCK_RUNS} (ms)`,
      values: unlocks((u) => u.toDecrypted, median),
      ...info,
    },
    { name: 'After sign-in: load-start → list painted (ms)', values: per((f) => f.signIn.toPainted), ...paintedBudget },
    { name: 'After sign-in: load-start → decrypted (ms)', values: per((f) => f.signIn.toDecrypted), ...info },
    {
      name: `Search: main-thread work per key, to its frame painted, median of ${keyCount} (ms)`,
      values: keys(work, median),
      ...keyBudget,
    },
    {
      name: `Search: main-thread work per key, to its frame painted, p95 of ${keyCount} (ms)`,
      values: keys(work, p95),
      ...keyBudget,
    },
    {
      name: `Search: main-thread work per key, to its frame painted, max of ${keyCount} (ms)`,
      values: keys(work, worst),
      ...keyBudget,
    },
    {
      name: `Search: key → frame with the matches (with the wait for it), median of ${keyCount} (ms)`,
      values: keys(frame, median),
      ...info,
    },
    {
      name: `Search: key → frame with the matches (with the wait for it), p95 of ${keyCount} (ms)`,
      values: keys(frame, p95),
      ...info,
    },
    {
      name: `Search: key → frame with the matches (with the wait for it), max of ${keyCount} (ms)`,
      values: keys(frame, worst),
      ...info,
    },
    { name: `Search: key → matches in the DOM, median of ${keyCount} (ms)`, values: keys(dom, median), ...info },
    { name: `Search: key → matches in the DOM, p95 of ${keyCount} (ms)`, values: keys(dom, p95), ...info },
    { name: `Search: key → matches in the DOM, max of ${keyCount} (ms)`, values: keys(dom, worst), ...info },
    { name: `Add: confirm click → row painted, median of ${CHANGE_ROUNDS} (ms)`, values: change('add', frame), ...changeBudget },
    {
      name: `Edit: confirm click → row painted, median of ${CHANGE_ROUNDS} (ms)`,
      values: change('edit', frame),
      ...changeBudget,
    },
    {
      name: `Delete: confirm click → row gone, painted, median of ${CHANGE_ROUNDS} (ms)`,
      values: change('remove', frame),
      ...changeBudget,
    },
    { name: `Add: confirm click → row in the DOM, median of ${CHANGE_ROUNDS} (ms)`, values: change('add', dom), ...info },
    { name: `Edit: confirm click → row in the DOM, median of ${CHANGE_ROUNDS} (ms)`, values: change('edit', dom), ...info },
    {
      name: `Delete: confirm click → row gone from the DOM, median of ${CHANGE_ROUNDS} (ms)`,
      values: change('remove', dom),
      ...info,
    },
    {
      name: `Longest task, Unlock click → painted, worst of ${UNLOCK_RUNS} (ms)`,
      values: unlocks((u) => u.longestTask, worst),
      ...taskBudget,
    },
    { name: 'Longest task, after sign-in load-start → painted (ms)', values: per((f) => f.signIn.longestTask), ...taskBudget },
    {
      name: 'DOM nodes after the list is painted',
      values: per((f) => f.unlocks[0]?.domNodes ?? 0),
      budget: `same at every size (±${BUDGET.domSpread * 100}%)`,
      test: (v) => worst(v) <= Math.min(...v) * (1 + BUDGET.domSpread),
    },
  ];
  const header = ['Figure', ...sizes.map((size) => `${size.toLocaleString('en')} entries`), 'Budget', 'Verdict'];
  printTable(
    'Large vault in Chromium (production server, SQLite; verdict: whether every size meets the budget)',
    header,
    rows.map((row): Cell[] => [row.name, ...row.values, row.budget, row.test ? verdict(row.test(row.values)) : '']),
  );
}

/**
 * A key's figures beside their ceiling: the same keys in a bare search field, where the work
 * is the browser's own (key events, the field's edit, a frame) and the app adds nothing.
 */
function printKeyCeilingTable(sizes: number[], all: SizeFigures[], bare: ShownTimes[]): void {
  const stats: [string, (values: number[]) => number][] = [
    ['median', median],
    ['p95', p95],
    ['max', worst],
  ];
  const row = (label: string, pick: (t: ShownTimes) => number, of: (values: number[]) => number): Cell[] => [
    label,
    ...all.map((f) => of(f.keys.map(pick))),
    of(bare.map(pick)),
  ];
  printTable(
    `Search keys beside the ceiling: the same ${bare.length} keys typed into a page holding only a search field`,
    ['Figure', ...sizes.map((size) => `App, ${size.toLocaleString('en')} entries`), 'Bare field (ceiling)'],
    [
      ...stats.map(([name, of]) => row(`Main-thread work per key, to its frame painted, ${name} (ms)`, (t) => t.work, of)),
      ...stats.map(([name, of]) => row(`Key → frame painted (with the wait for it), ${name} (ms)`, (t) => t.frame, of)),
    ],
  );
}

function printKdfTable(kdf: KdfFigures): void {
  const { memoryKiB, iterations, parallelism } = DEFAULT_KDF_PARAMS;
  const params = `m=${memoryKiB / 1024} MiB, t=${iterations}, p=${parallelism}`;
  const workerMedian = median(kdf.workerMs);
  printTable(
    `Client KDF in Chromium at the default params (${params}), one Unlock per fresh page load`,
    ['Figure', ...kdf.workerMs.map((_, i) => `Run ${i + 1}`), 'Median', 'Budget', 'Verdict'],
    [
      [
        "Argon2id in the app's KDF worker, request → answer (ms)",
        ...kdf.workerMs,
        workerMedian,
        `< ${BUDGET.kdfMs} ms`,
        verdict(workerMedian < BUDGET.kdfMs),
      ],
      [
        'Unlock click → vault key ready (key material, KDF, unwrap) (ms)',
        ...kdf.unlockToKeyMs,
        median(kdf.unlockToKeyMs),
        '—',
        '',
      ],
    ],
  );
}
