import { DEFAULT_KDF_PARAMS } from '@lockit/crypto';
import { createServerDatabase, type ServerDatabase } from '@lockit/test-support';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newProbedPage } from '../support/browser';
import { kdfRuns, readVaultLoad } from '../support/page-probes';
import { describeMachine, median, percentile, printHeading, printTable, verdict } from '../support/report';
import { addRealisticItems, clientIp, createSignedInAccount, prepareKeys } from '../support/seed';
import { startLockitServer, startSeedingServer, type ServerProcess } from '../support/server-process';
import { openVaultFromHeader, signInThroughUi } from '../support/vault-ui';

const PASSWORD = 'correct horse battery staple';
const USER = 'offline';
const ENTRIES = Number(process.env.BENCH_OFFLINE_ENTRIES ?? 10_000);
const UNLOCK_RUNS = Number(process.env.BENCH_OFFLINE_RUNS ?? 5);
const EDITS = Number(process.env.BENCH_OFFLINE_EDITS ?? 20);
/** Redis pub/sub between the processes unless BENCH_OFFLINE_NOTIFY=pg (PostgreSQL LISTEN/NOTIFY). */
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const useRedis = () => process.env.BENCH_OFFLINE_NOTIFY !== 'pg';

/** Aims of docs/performance.md: unlock from the copy within 1 s after the KDF, a remote edit painted within 500 ms (p95). */
const UNLOCK_AFTER_KDF_AIM_MS = 1_000;
const NOTICE_P95_AIM_MS = 500;

/**
 * Decisions 0066 and 0074 at ENTRIES entries, in Chromium on the built app, the account at the
 * default KDF params: (1) the live notice of an edit written through another server process,
 * from that write's answer to the row painted in a page on the first process; (2) the offline
 * copy's size and the page's heap with the vault open; (3) with both processes stopped, a
 * reload unlocked from the copy, the Unlock click to the list painted, beside the KDF of that
 * same unlock (the app's KDF worker, timed from outside by page-probes).
 */
export async function offlineBench(): Promise<void> {
  printHeading(
    `Offline copy and live sync at ${ENTRIES.toLocaleString('en')} entries (two processes on PostgreSQL, ${useRedis() ? 'Redis' : 'LISTEN/NOTIFY'})`,
  );
  const db = await createServerDatabase('postgres', 'lockit-bench-offline');
  const servers: ServerProcess[] = [];
  let browser: Browser | undefined;
  try {
    await seed(db);
    const env: Record<string, string> = useRedis() ? { REDIS_URL } : {};
    servers.push(...(await Promise.all([startLockitServer({ db, env }), startLockitServer({ db, env })])));
    const [first, second] = servers as [ServerProcess, ServerProcess];
    browser = await launchBrowser();
    const page = await newProbedPage(browser, first.url);
    await signInThroughUi(page, USER, PASSWORD);
    const before = await storageUsage(page);
    await openVaultFromHeader(page);
    await waitForCopy(page);
    const after = await storageUsage(page);
    const copyChars = await copyJsonLength(page);
    const heapOnline = await heapUsed(page);
    await page.getByTestId('vault-list').evaluate((list) => list.scrollTo(0, 0));

    const notices = await timeRemoteEdits(browser, page, second.url);

    // The shell must come from the service worker once the servers are gone.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await Promise.all(servers.splice(0).map((server) => server.stop()));
    const unlocks = await timeOfflineUnlocks(page);
    const heapOffline = await heapUsed(page);

    printTable(
      `Live notice across two processes: write answered on B → row painted in a page on A (${notices.length} edits, ms)`,
      ['measure', 'p50', 'p95', 'max', 'aim', 'verdict'],
      [
        [
          'notice to painted',
          median(notices),
          percentile(notices, 95),
          Math.max(...notices),
          `p95 < ${NOTICE_P95_AIM_MS}`,
          verdict(percentile(notices, 95) < NOTICE_P95_AIM_MS),
        ],
      ],
    );
    const afterKdf = unlocks.map((run) => run.clickToPainted - run.kdf);
    printTable(
      `Unlock from the offline copy, server processes stopped (${unlocks.length} reloads, ms; ceiling: the KDF of the same unlock)`,
      ['measure', 'median', 'max'],
      [
        [
          'Unlock click → list painted',
          median(unlocks.map((run) => run.clickToPainted)),
          Math.max(...unlocks.map((run) => run.clickToPainted)),
        ],
        [
          '  of which the KDF (worker, same unlock)',
          median(unlocks.map((run) => run.kdf)),
          Math.max(...unlocks.map((run) => run.kdf)),
        ],
        ['  after the KDF', median(afterKdf), Math.max(...afterKdf)],
        [
          '  load start → whole-vault check done',
          median(unlocks.map((run) => run.toChecked)),
          Math.max(...unlocks.map((run) => run.toChecked)),
        ],
      ],
    );
    console.log(
      `after the KDF: median ${Math.round(median(afterKdf))} ms, aim ${UNLOCK_AFTER_KDF_AIM_MS} ms: ${verdict(median(afterKdf) <= UNLOCK_AFTER_KDF_AIM_MS)}`,
    );
    const mib = (bytes: number) => Number((bytes / 2 ** 20).toFixed(1));
    printTable(
      `The copy and the page at ${ENTRIES.toLocaleString('en')} entries (MiB)`,
      ['measure', 'MiB'],
      [
        ['IndexedDB usage, copy written − before (storage.estimate)', mib(after.indexedDb - before.indexedDb)],
        ['origin usage, copy written − before (storage.estimate)', mib(after.total - before.total)],
        ['the stored record as JSON', mib(copyChars)],
        ['JS heap after GC, vault open online', mib(heapOnline)],
        ['JS heap after GC, vault open from the copy', mib(heapOffline)],
      ],
    );
    console.log(`\nAt the end: ${describeMachine()}`);
  } finally {
    await browser?.close();
    await Promise.all(servers.map((server) => server.stop()));
    await db.drop();
  }
}

/** One account at the default KDF params holding ENTRIES realistic items. */
async function seed(db: ServerDatabase): Promise<void> {
  const { server, inbox } = await startSeedingServer(db);
  try {
    const started = Date.now();
    const keys = await prepareKeys(PASSWORD, { ...DEFAULT_KDF_PARAMS });
    const session = await createSignedInAccount(server.url, inbox, keys, USER, clientIp(1));
    await addRealisticItems(session, keys.vaultKey, ENTRIES, 16);
    console.log(`seeded ${ENTRIES.toLocaleString('en')} entries in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await server.stop();
  }
}

/** The origin's usage and its IndexedDB part (Chromium's usageDetails), in bytes. */
async function storageUsage(page: Page): Promise<{ total: number; indexedDb: number }> {
  return page.evaluate(async () => {
    const estimate = (await navigator.storage.estimate()) as StorageEstimate & { usageDetails?: { indexedDB?: number } };
    return { total: estimate.usage ?? 0, indexedDb: estimate.usageDetails?.indexedDB ?? 0 };
  });
}

/** Reads the copy in the page until it holds every entry (the app writes it after the list is open). */
async function waitForCopy(page: Page): Promise<void> {
  const started = Date.now();
  while ((await copyEntryCount(page)) < ENTRIES) {
    if (Date.now() - started > 60_000) throw new Error('the offline copy did not reach every entry within 60 s');
    await page.waitForTimeout(250);
  }
}

function readCopies<T>(page: Page, summarise: 'count' | 'json'): Promise<T> {
  return page.evaluate(
    (what) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('lockit-offline');
        // Before the app made the database: no copy yet, and leave its creation to the app.
        let absent = false;
        open.onupgradeneeded = () => {
          absent = true;
          open.transaction?.abort();
        };
        open.onerror = () => (absent ? resolve(0) : reject(open.error ?? new Error('open failed')));
        open.onsuccess = () => {
          const database = open.result;
          const all = database.transaction('copies', 'readonly').objectStore('copies').getAll();
          all.onsuccess = () => {
            database.close();
            const copy = (all.result as Array<{ entries: unknown[] }>)[0];
            if (!copy) resolve(0);
            else resolve(what === 'count' ? copy.entries.length : JSON.stringify(copy).length);
          };
          all.onerror = () => reject(all.error ?? new Error('read failed'));
        };
      }),
    summarise,
  ) as Promise<T>;
}
const copyEntryCount = (page: Page) => readCopies<number>(page, 'count');
const copyJsonLength = (page: Page) => readCopies<number>(page, 'json');

/** The page's used JS heap after a full garbage collection (DevTools protocol). */
async function heapUsed(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize;
  } finally {
    await cdp.detach();
  }
}

/**
 * A second browser context, signed in on process B, adds one entry and renames it EDITS times
 * through the vault's Edit dialog: real writes, each carrying the vault state the app computes
 * (decision 0053), which a write made up in Node could not. Per edit: the PUT's answer in B
 * (its resource timing's responseEnd) → the frame after the renamed row reached the DOM of the
 * page on A, both on the machine's wall clock (timeOrigin + the page's clock; one browser).
 * The names sort first, so the row is in view in both lists.
 */
async function timeRemoteEdits(browser: Browser, page: Page, otherUrl: string): Promise<number[]> {
  const writer = await newProbedPage(browser, otherUrl);
  try {
    await signInThroughUi(writer, USER, PASSWORD);
    await openVaultFromHeader(writer);
    await writer.evaluate(() => performance.setResourceTimingBufferSize(100_000));
    let current = 'Aaa live';
    await page.evaluate(watchForRow, current);
    await writer.getByRole('button', { name: 'Add', exact: true }).click();
    const add = writer.getByRole('dialog', { name: 'Add New Password' });
    await add.getByLabel('Service').fill(current);
    await add.getByLabel('Username').fill('live@example.com');
    await add.getByLabel('Password', { exact: true }).fill('live-Secret-4242');
    await add.getByRole('button', { name: 'Add', exact: true }).click();
    await add.waitFor({ state: 'hidden' });
    await page.evaluate(() => (window as unknown as { __offlineBenchRow: Promise<number> }).__offlineBenchRow);
    const latencies: number[] = [];
    for (let edit = 1; edit <= EDITS; edit++) {
      const name = `Aaa live ${String(edit).padStart(2, '0')}`;
      await page.evaluate(watchForRow, name);
      await writer.evaluate(() => performance.clearResourceTimings());
      await writer
        .getByRole('list', { name: 'Saved passwords' })
        .getByRole('button', { name: `Edit ${current}`, exact: true })
        .click();
      const dialog = writer.getByRole('dialog', { name: 'Edit Password' });
      await dialog.getByLabel('Service').fill(name);
      await dialog.getByRole('button', { name: 'Save', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      const answered = await writer.evaluate(() => {
        const put = performance
          .getEntriesByType('resource')
          .filter((entry) => entry.name.includes('/api/passwords/update-password/'))
          .at(-1) as PerformanceResourceTiming | undefined;
        if (!put) throw new Error('no PUT of the edit in the resource timings');
        return performance.timeOrigin + put.responseEnd;
      });
      const painted = await page.evaluate(() => (window as unknown as { __offlineBenchRow: Promise<number> }).__offlineBenchRow);
      latencies.push(painted - answered);
      current = name;
      await page.waitForTimeout(200);
    }
    return latencies;
  } finally {
    await writer.context().close();
  }
}

/** In the page: a promise of the wall-clock time of the frame after a row named `name` appears. */
function watchForRow(name: string): void {
  const present = () =>
    Array.from(document.querySelectorAll('[role="list"][aria-label="Saved passwords"] [id^="entry-name-"]')).some(
      (element) => element.textContent === name,
    );
  (window as unknown as { __offlineBenchRow: Promise<number> }).__offlineBenchRow = new Promise((resolve, reject) => {
    const timeout = setTimeout(() => {
      observer.disconnect();
      reject(new Error(`no row "${name}" within 10 s`));
    }, 10_000);
    const observer = new MutationObserver(() => {
      if (!present()) return;
      observer.disconnect();
      clearTimeout(timeout);
      // requestAnimationFrame runs before the paint; a task queued from it runs after.
      requestAnimationFrame(() => setTimeout(() => resolve(performance.timeOrigin + performance.now()), 0));
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}

interface OfflineUnlock {
  clickToPainted: number;
  kdf: number;
  toChecked: number;
}

/** UNLOCK_RUNS reloads with "Lock on every reload" on, each unlocked from the copy. */
async function timeOfflineUnlocks(page: Page): Promise<OfflineUnlock[]> {
  const runs: OfflineUnlock[] = [];
  for (let run = 0; run < UNLOCK_RUNS; run++) {
    await page.evaluate(() => localStorage.setItem('lockit.lockOnReload', 'true'));
    await page.reload();
    await page.getByText('Offline: Lockit cannot reach your server').first().waitFor();
    await page.getByLabel('Master Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Unlock', exact: true }).click();
    const load = await readVaultLoad(page, 'submit');
    const kdf = await kdfRuns(page);
    // One worker run per unlock, or the app derived somewhere else than the worker path.
    if (kdf.length !== 1) throw new Error(`expected one KDF worker run per offline unlock, saw ${kdf.length}`);
    runs.push({ clickToPainted: load.submitToStart + load.toPainted, kdf: kdf[0]!, toChecked: load.toChecked });
  }
  return runs;
}
