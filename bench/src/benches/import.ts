import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { createServerDatabase } from '@lockit/test-support';
import { launchBrowser, newProbedPage } from '../support/browser';
import { profiled } from '../support/cpu-profile';
import { readVaultLoad } from '../support/page-probes';
import { printHeading, printTable, verdict } from '../support/report';
import { clientIp, createSignedInAccount, prepareKeys } from '../support/seed';
import { startLockitServer, startSeedingServer } from '../support/server-process';
import { signInThroughUi } from '../support/vault-ui';

/** Issue 14: 10,000 items of a Bitwarden JSON, file pick to the list painted, under 10 s (aim 3 s), no task over 50 ms. */
const BUDGET_MS = 10_000;
const AIM_MS = 3_000;
const TASK_BUDGET_MS = 50;
const ITEMS = Number(process.env.BENCH_IMPORT_ITEMS ?? 10_000);
const PASSWORD = 'correct horse battery staple';
const USER = 'import10k';

const FOLDERS = ['Work', 'Work/Dev', 'Work/Dev/Servers', 'Personal', 'Personal/Bank', 'Shopping', 'Social', 'Travel', 'Family'];
const folderId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A password like a generator's: 20 characters of a wide alphabet, punctuation included. */
function password(n: number): string {
  const alphabet = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789!@#$%^&*()-_=+[]{};:,.<>/?|~`\'" \\';
  let seed = n * 2654435761;
  let text = '';
  for (let i = 0; i < 20; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    text += alphabet[seed % alphabet.length];
  }
  return text;
}

/**
 * One item as Bitwarden's unencrypted JSON export writes it: mostly logins (1-3 URIs, a third
 * with a TOTP seed, some custom fields and password history), some notes, cards, identities;
 * four in five in a folder, some nested; a few favourites.
 */
function bitwardenItem(n: number): Record<string, unknown> {
  const kind = n % 20;
  const common = {
    id: `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    organizationId: null,
    folderId: n % 5 === 0 ? null : folderId(n % FOLDERS.length),
    favorite: n % 40 === 0,
    notes: n % 6 === 0 ? `Recovery codes are in the safe.\nAccount ${n}, opened 2019.` : null,
    fields:
      n % 7 === 0
        ? [
            { name: 'PIN', value: String(1000 + (n % 9000)), type: 1, linkedId: null },
            { name: 'Customer number', value: `C-${n}`, type: 0, linkedId: null },
          ]
        : [],
    collectionIds: null,
    revisionDate: '2024-03-05T10:00:00.000Z',
    creationDate: '2023-01-15T09:30:00.000Z',
    deletedDate: null,
  };
  if (kind < 16) {
    const host = `service${n}.example.com`;
    const uris = [`https://${host}/login`, `https://m.${host}`, `https://accounts.${host}/signin`]
      .slice(0, 1 + (n % 3))
      .map((uri) => ({ match: null, uri }));
    return {
      ...common,
      type: 1,
      name: `Service ${n}`,
      login: {
        fido2Credentials: [],
        uris,
        username: `user${n}@example.com`,
        password: password(n),
        totp: n % 3 === 0 ? `otpauth://totp/Service%20${n}:user${n}?secret=JBSWY3DPEHPK3PXP&issuer=Service%20${n}` : null,
      },
      passwordHistory: n % 10 === 0 ? [{ lastUsedDate: '2023-06-01T10:00:00.000Z', password: password(n + 1) }] : null,
    };
  }
  if (kind < 18)
    return { ...common, type: 2, name: `Note ${n}`, notes: `Wi-Fi ${n}\nKey: ${password(n)}`, secureNote: { type: 0 } };
  if (kind === 18) {
    return {
      ...common,
      type: 3,
      name: `Card ${n}`,
      card: {
        cardholderName: `Holder ${n}`,
        brand: 'Visa',
        number: '4111111111111111',
        expMonth: String(1 + (n % 12)),
        expYear: '2030',
        code: String(100 + (n % 900)),
      },
    };
  }
  return {
    ...common,
    type: 4,
    name: `Identity ${n}`,
    identity: {
      title: 'Mx',
      firstName: `First${n}`,
      middleName: null,
      lastName: `Last${n}`,
      address1: `${n} Main Street`,
      address2: null,
      address3: null,
      city: 'Springfield',
      state: 'IL',
      postalCode: '62701',
      country: 'US',
      company: null,
      email: `person${n}@example.com`,
      phone: '+1 555 0100',
      ssn: null,
      username: `person${n}`,
      passportNumber: `X${n}`,
      licenseNumber: null,
    },
  };
}

/** The export file, written where the browser can pick it. */
export function writeBitwardenExport(count: number): string {
  const file = join(mkdtempSync(join(tmpdir(), 'lockit-bench-import-')), 'bitwarden_export_10k.json');
  const folders = FOLDERS.map((name, n) => ({ id: folderId(n), name }));
  const items = Array.from({ length: count }, (_, n) => bitwardenItem(n));
  writeFileSync(file, JSON.stringify({ encrypted: false, folders, items }, null, 2));
  return file;
}

const pageNow = (page: Page) => page.evaluate(() => performance.now());

/** The longest main-thread task (page-probes' longtask observer) overlapping [from, to]. */
const longestTask = (page: Page, from: number, to: number) =>
  page.evaluate(
    ([start, end]) =>
      Math.max(
        0,
        ...window.__lockitBench.longTasks
          .filter((task) => task.end > start && task.start < end)
          .map((task) => task.end - task.start),
      ),
    [from, to] as const,
  );

interface Stage {
  name: string;
  from: number;
  to: number;
}

/**
 * The import screen in Chromium against the built app on the production server: a new
 * account (empty vault), /vault/import, the file picked, the preview, the import, and the
 * vault filtered by the import's tag until its painted mark. Each stage is timed in the page
 * from the person's input to what it shows; the total also holds the automation's own steps
 * between stages (a person would take longer there).
 */
async function measureImport(file: string): Promise<void> {
  const db = await createServerDatabase('sqlite', 'lockit-bench-import');
  try {
    const { server: seeding, inbox } = await startSeedingServer(db);
    try {
      await createSignedInAccount(seeding.url, inbox, await prepareKeys(PASSWORD), USER, clientIp(1));
    } finally {
      await seeding.stop();
    }
    const server = await startLockitServer({ db });
    const browser = await launchBrowser();
    try {
      const page = await newProbedPage(browser, server.url);
      page.setDefaultTimeout(600_000);
      await signInThroughUi(page, USER, PASSWORD);
      // Client-side navigation: the vault key the sign-in put in memory stays held.
      await page.getByRole('banner').getByRole('link', { name: 'Vault' }).first().click();
      await page.getByRole('link', { name: 'Import', exact: true }).first().click();
      await page.getByText('Drop an export file here, or').waitFor();
      await page.evaluate(() => {
        const seen = window as unknown as { __pickedAt: number; __progress: number[] };
        seen.__pickedAt = -1;
        seen.__progress = [];
        addEventListener('change', (event) => (seen.__pickedAt = event.timeStamp), { capture: true, once: true });
        new MutationObserver(() => {
          const bar = document.querySelector('[role="progressbar"][aria-label="Importing"]');
          const value = Number(bar?.getAttribute('aria-valuenow') ?? Number.NaN);
          if (!Number.isNaN(value) && seen.__progress.at(-1) !== value) seen.__progress.push(value);
        }).observe(document.body, { subtree: true, childList: true, attributes: true });
      });

      const stages: Stage[] = [];
      await page.getByLabel('Choose a file').setInputFiles(file);
      const preview = page.getByRole('button', { name: 'Show preview' });
      await page.waitForFunction(() => {
        const button = Array.from(document.querySelectorAll('button')).find((b) => b.textContent === 'Show preview');
        return button !== undefined && !button.disabled;
      });
      const pickedAt = await page.evaluate(() => (window as unknown as { __pickedAt: number }).__pickedAt);
      stages.push({ name: 'pick → format detected, ready to preview', from: pickedAt, to: await pageNow(page) });
      const format = await page.getByLabel('Format', { exact: true }).inputValue();
      if (format !== 'bitwarden-json') throw new Error(`detected ${format || 'nothing'}, not bitwarden-json`);

      let from = await pageNow(page);
      await preview.click();
      await page.getByRole('heading', { name: /^Preview: / }).waitFor();
      stages.push({ name: 'Show preview → preview shown (parse, plan)', from, to: await pageNow(page) });
      const summary = await page.getByText(/ new items, /).innerText();
      if (!summary.startsWith(`${ITEMS} new items`)) throw new Error(`the preview says "${summary}"`);

      from = await pageNow(page);
      // BENCH_IMPORT_PROFILE=<dir>: CPU profiles of the page, import.cpuprofile from the Import click
      // to the summary, list.cpuprofile from the link to the painted list.
      await profiled(page, process.env.BENCH_IMPORT_PROFILE, 'import', async () => {
        await page.getByRole('button', { name: `Import ${ITEMS} items` }).click();
        await page.getByRole('heading', { name: 'Import complete' }).waitFor({ timeout: 600_000 });
      });
      stages.push({ name: 'Import → summary (seal, send in batches)', from, to: await pageNow(page) });
      const progress = await page.evaluate(() => (window as unknown as { __progress: number[] }).__progress);

      // The vault's marks of its earlier visit (on the way here) must not be read as this load's.
      from = await page.evaluate(() => {
        performance.clearMarks();
        return performance.now();
      });
      // BENCH_IMPORT_PROFILE: a second profile, from the link to the painted list.
      const load = await profiled(page, process.env.BENCH_IMPORT_PROFILE, 'list', async () => {
        await page.getByRole('link', { name: 'Show the imported items' }).click();
        return readVaultLoad(page, 'load-start');
      });
      const painted = await page.evaluate(() => performance.getEntriesByName('lockit:vault-painted').at(-1)!.startTime);
      stages.push({ name: 'Show the imported items → list painted', from, to: painted });
      const shown = await page
        .getByRole('list', { name: 'Saved passwords' })
        .getByRole('listitem')
        .first()
        .getAttribute('aria-setsize');
      if (shown !== String(ITEMS)) throw new Error(`the vault lists ${shown} imported items, not ${ITEMS}`);

      const rows = [];
      for (const stage of stages) {
        rows.push([stage.name, stage.to - stage.from, await longestTask(page, stage.from, stage.to), '', '']);
      }
      const work = stages.reduce((sum, stage) => sum + stage.to - stage.from, 0);
      const wholeTask = await longestTask(page, pickedAt, painted);
      rows.push([
        'sum of the stages (the app at work)',
        work,
        wholeTask,
        `${BUDGET_MS} (aim ${AIM_MS})`,
        verdict(work < BUDGET_MS),
      ]);
      rows.push([
        'file pick → list painted, wall (with the automation between stages)',
        painted - pickedAt,
        wholeTask,
        `${BUDGET_MS} (aim ${AIM_MS})`,
        verdict(painted - pickedAt < BUDGET_MS),
      ]);
      rows.push([
        'longest main-thread task, pick → painted',
        wholeTask,
        '',
        TASK_BUDGET_MS,
        verdict(wholeTask <= TASK_BUDGET_MS),
      ]);
      printTable(
        `Import page in Chromium, ${ITEMS.toLocaleString('en')} items of a Bitwarden JSON into an empty vault`,
        ['stage', 'ms', 'longest task ms', 'budget ms', 'verdict'],
        rows,
      );
      console.log(
        `progress bar values seen while importing: ${progress.length} (${progress.slice(0, 3).join(', ')} … ${progress.slice(-2).join(', ')}); vault load: decrypted ${Math.round(load.toDecrypted)} ms, painted ${Math.round(load.toPainted)} ms after its start`,
      );
    } finally {
      await browser.close();
      await server.stop();
    }
  } finally {
    await db.drop();
  }
}

export async function importBench(): Promise<void> {
  printHeading(
    `Import: ${ITEMS.toLocaleString('en')} items of a Bitwarden JSON in Chromium (budget 10 s, aim 3 s; tasks ≤ 50 ms)`,
  );
  const file = writeBitwardenExport(ITEMS);
  await measureImport(file);
}
