import type { Browser, Page } from 'playwright-core';
import { addSealed, createServerDatabase, sealItem, type ServerDatabase } from '@lockit/test-support';
import { profiled } from '../support/cpu-profile';
import { launchBrowser, newProbedPage } from '../support/browser';
import { describeMachine, median, printHeading, printTable, verdict } from '../support/report';
import { addFolders, clientIp, createSignedInAccount, prepareKeys, realisticItem } from '../support/seed';
import { startLockitServer, startSeedingServer, type ServerProcess } from '../support/server-process';
import { signInThroughUi } from '../support/vault-ui';

const PASSWORD = 'correct horse battery staple';
const USER = 'health10000';
const SIZE = 10_000;
const RUNS = 3;
/** Issue 13: weak, reused and old for 10,000 items under 1 s, no main-thread task over 50 ms. */
const BUDGET = { reportMs: 1000, taskMs: 50 };

/** The marks the health page sets (features/vault/health/use-health-report.ts). */
const START = 'lockit:health-start';
const READY = 'lockit:health-ready';

/**
 * A realistic item (seed.ts), with the problems a real vault has: one login in 25 with a
 * common password (shared by groups of items, so weak and reused both have members).
 */
function healthItem(n: number, folderIds: readonly string[]) {
  const item = realisticItem(n, folderIds);
  return n % 25 === 0 && item.password !== '' ? { ...item, password: `summer${n % 40}` } : item;
}

/**
 * The vault health report in Chromium on the built app: from the moment the page
 * has the decrypted list and starts the report (mark lockit:health-start) to the report
 * shown (lockit:health-ready), and the longest main-thread task in between, for 10,000
 * realistic items. `npm run bench -- health`.
 */
export async function vaultHealthBench(): Promise<void> {
  printHeading(`Vault health report in Chromium (${SIZE.toLocaleString('en')} items)`);
  const db = await createServerDatabase('sqlite', 'lockit-bench-health');
  let server: ServerProcess | undefined;
  let browser: Browser | undefined;
  try {
    await seed(db);
    server = await startLockitServer({ db, env: { BREACH_CHECK_URL: 'off' } });
    browser = await launchBrowser();
    const page = await newProbedPage(browser, server.url);
    await signInThroughUi(page, USER, PASSWORD);
    const runs: Array<{ reportMs: number; longestTaskMs: number; findings: string }> = [];
    // BENCH_HEALTH_PROFILE=<dir>: a CPU profile of the page during each run, health-<run>.cpuprofile.
    for (let run = 0; run < RUNS; run++) {
      runs.push(await profiled(page, process.env.BENCH_HEALTH_PROFILE, `health-${run + 1}`, () => measureOnce(page)));
    }
    printTable(
      `Health report, ${SIZE.toLocaleString('en')} items (median of ${RUNS})`,
      ['figure', 'measured', 'budget', ''],
      [
        [
          'report (weak, reused, old, http, TOTP)',
          `${median(runs.map((r) => r.reportMs)).toFixed(0)} ms`,
          `${BUDGET.reportMs} ms`,
          verdict(median(runs.map((r) => r.reportMs)) < BUDGET.reportMs),
        ],
        [
          'longest main-thread task in it',
          `${Math.max(...runs.map((r) => r.longestTaskMs)).toFixed(0)} ms`,
          `${BUDGET.taskMs} ms`,
          verdict(Math.max(...runs.map((r) => r.longestTaskMs)) <= BUDGET.taskMs),
        ],
      ],
    );
    console.log(`Each run: ${runs.map((r) => `${r.reportMs.toFixed(0)} ms (${r.findings})`).join('; ')}`);
    console.log(`\nAt the end: ${describeMachine()}`);
  } finally {
    await browser?.close();
    await server?.stop();
    await db.drop();
  }
}

async function seed(db: ServerDatabase): Promise<void> {
  const { server: seeding, inbox } = await startSeedingServer(db);
  try {
    const started = Date.now();
    const keys = await prepareKeys(PASSWORD);
    const session = await createSignedInAccount(seeding.url, inbox, keys, USER, clientIp(7));
    const folderIds = await addFolders(session, keys.vaultKey);
    await addSealed(session, SIZE, (n) => sealItem(keys.vaultKey, healthItem(n, folderIds)), 16);
    console.log(`seeded ${SIZE.toLocaleString('en')} items in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await seeding.stop();
  }
}

/** A fresh load of /vault/health (the key is gone: Unlock), then the report's marks and long tasks. */
async function measureOnce(page: Page) {
  // "Lock on every reload" (decision 0048): the fresh load asks for the master password again.
  await page.evaluate(() => localStorage.setItem('lockit.lockOnReload', 'true'));
  await page.goto('/vault/health');
  await page.getByLabel('Master Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Unlock', exact: true }).click();
  await page.waitForFunction((name) => performance.getEntriesByName(name).length > 0, READY, { timeout: 120_000 });
  const findings = await page.getByLabel('Problems by category').innerText();
  return page.evaluate(
    ({ start, ready, text }) => {
      const from = performance.getEntriesByName(start).at(-1)!.startTime;
      const to = performance.getEntriesByName(ready).at(-1)!.startTime;
      const tasks = window.__lockitBench.longTasks.filter((task) => task.end > from && task.start < to);
      const longestTaskMs = tasks.reduce((longest, task) => Math.max(longest, task.end - task.start), 0);
      return { reportMs: to - from, longestTaskMs, findings: text.replace(/\n(\d+)/g, ' $1').replace(/\n/g, ', ') };
    },
    { start: START, ready: READY, text: findings },
  );
}
