import { DEFAULT_KDF_PARAMS } from '@lockit/crypto';
import type { Browser } from 'playwright-core';
import { launchBrowser, newProbedPage } from '../support/browser';
import { profiled } from '../support/cpu-profile';
import { createServerDatabase, type ServerDatabase } from '@lockit/test-support';
import { kdfRuns, type ShownTimes, type VaultLoad } from '../support/page-probes';
import { describeMachine, printHeading } from '../support/report';
import {
  addRealisticItems,
  clientIp,
  createSignedInAccount,
  editRepeatedly,
  prepareKeys,
  realisticSearchText,
} from '../support/seed';
import {
  CHANGE_ROUNDS,
  KDF_RUNS,
  OPENS,
  printKdfTable,
  printFormatTable,
  printKeyCeilingTable,
  printVaultTable,
  SEARCH_QUERY,
  UNLOCK_RUNS,
  type KdfFigures,
  type SizeFigures,
} from './vault-browser-figures';
import { startLockitServer, startSeedingServer, type ServerProcess } from '../support/server-process';
import {
  loadAndUnlock,
  openBareSearchPage,
  openVaultFromHeader,
  signInThroughUi,
  timeChanges,
  timeFilterSwitches,
  timeOpenItems,
  timeSearchKeystrokes,
  type ChangeTimes,
} from '../support/vault-ui';

const PASSWORD = 'correct horse battery staple';
const KDF_PASSWORD = 'correct horse battery staple at the defaults';
const KDF_USER = 'kdfdefaults';
/** Repeated figures: a 2-core machine shared with other work makes single runs noisy. */

const vaultUser = (size: number) => `vault${size}`;
/** The largest vault again, as Lockit saved items before bound overviews (decision 0055). */
const unboundUser = (size: number) => `unbound${size}`;
/** BENCH_VAULT_UNBOUND=0 skips that comparison (it seeds one more vault of the largest size). */
const compareUnbound = () => process.env.BENCH_VAULT_UNBOUND !== '0';

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
    const largest = Math.max(...sizes);
    const unbound = compareUnbound() ? await measureUnlocks(browser, server.url, unboundUser(largest)) : null;
    const bare = await measureBareSearch(browser, server.url);
    const kdf = await measureKdf(browser, server.url);
    printVaultTable(sizes, figures);
    if (unbound) printFormatTable(largest, figures[sizes.indexOf(largest)]!.unlocks, unbound);
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
    if (compareUnbound()) {
      const size = Math.max(...sizes);
      const started = Date.now();
      const session = await createSignedInAccount(seeding.url, inbox, keys, unboundUser(size), clientIp(500));
      await addRealisticItems(session, keys.vaultKey, size, 16, { unbound: true });
      console.log(
        `seeded ${size.toLocaleString('en')} entries saved before bound overviews in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    }
    const kdfKeys = await prepareKeys(KDF_PASSWORD, { ...DEFAULT_KDF_PARAMS });
    await createSignedInAccount(seeding.url, inbox, kdfKeys, KDF_USER, clientIp(1_000));
  } finally {
    await seeding.stop();
  }
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
    const filters: ShownTimes[] = [];
    const opens: ShownTimes[] = [];
    for (let run = 0; run < UNLOCK_RUNS; run++) {
      unlocks.push(
        await profiled(page, process.env.BENCH_VAULT_PROFILE, `unlock-${size}-${run + 1}`, () =>
          loadAndUnlock(page, PASSWORD, 'reload'),
        ),
      );
      // Before the changes: the expected match counts are those of the seeded entries only.
      const typed = await traced(browser, `search-${size}-${run + 1}`, () =>
        profiled(page, process.env.BENCH_VAULT_PROFILE, `search-${size}-${run + 1}`, () =>
          timeSearchKeystrokes(page, SEARCH_QUERY, matchesIn(size)),
        ),
      );
      // BENCH_VAULT_DETAIL: every key (in the DOM / work / painted frame, ms), to see the tail.
      if (process.env.BENCH_VAULT_DETAIL) {
        console.log(
          `${size} entries, unlock ${run + 1}: ${typed.map((t, i) => `${SEARCH_QUERY.slice(0, i + 1)} ${t.dom.toFixed(1)}/${t.work.toFixed(1)}/${t.frame.toFixed(1)}`).join(', ')}`,
        );
      }
      keys.push(...typed);
      filters.push(...(await timeFilterSwitches(page)));
      opens.push(...(await timeOpenItems(page, OPENS)));
    }
    const changes: ChangeTimes[] = [];
    for (let round = 0; round < CHANGE_ROUNDS; round++) changes.push(await timeChanges(page, round));
    return { signIn, unlocks, keys, filters, opens, changes };
  } finally {
    await page.context().close();
  }
}

/** Sign-in, the vault link, then UNLOCK_RUNS reloads with Unlock: the unlock figures alone. */
async function measureUnlocks(browser: Browser, baseUrl: string, user: string): Promise<VaultLoad[]> {
  const page = await newProbedPage(browser, baseUrl);
  try {
    await signInThroughUi(page, user, PASSWORD);
    await openVaultFromHeader(page);
    const unlocks: VaultLoad[] = [];
    for (let run = 0; run < UNLOCK_RUNS; run++) unlocks.push(await loadAndUnlock(page, PASSWORD, 'reload'));
    return unlocks;
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
