import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { ATTACHMENT_CHUNK_BYTES } from '@lockit/crypto';
import { createServerDatabase } from '@lockit/test-support';
import { launchBrowser, newProbedPage } from '../support/browser';
import { describeMachine, median, printHeading, printTable } from '../support/report';
import { addRealisticItems, clientIp, createSignedInAccount, prepareKeys } from '../support/seed';
import { startLockitServer, startSeedingServer } from '../support/server-process';
import { signInThroughUi } from '../support/vault-ui';

const MiB = 1024 * 1024;
/** BENCH_ATTACHMENT_MB: the file's size in MiB; 100 is the server's default per-file limit. */
const FILE_MIB = Number(process.env.BENCH_ATTACHMENT_MB ?? 100);
/** The bare crypto is quick and noisy on a shared machine: the median of a few runs. */
const CEILING_RUNS = 3;
/** What one step may take on 2 busy cores before the bench gives up. */
const STEP_TIMEOUT_MS = 600_000;
/** How often the server's resident memory is read while a transfer runs. */
const RSS_POLL_MS = 20;
const PASSWORD = 'correct horse battery staple';
const USER = 'attachments';
/** realisticItem(0) of the seed: a login. */
const SERVICE = 'Service 0';
const FILE_NAME = 'bench-attachment.bin';

/** Writes `bytes` random bytes to `path` a MiB at a time; their SHA-256 (hex). */
async function writeRandomFile(path: string, bytes: number): Promise<string> {
  const hash = createHash('sha256');
  const file = await open(path, 'w');
  try {
    for (let at = 0; at < bytes; at += MiB) {
      const piece = randomBytes(Math.min(MiB, bytes - at));
      hash.update(piece);
      await file.write(piece);
    }
  } finally {
    await file.close();
  }
  return hash.digest('hex');
}

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const piece of createReadStream(path)) hash.update(piece as Buffer);
  return hash.digest('hex');
}

/** A field of /proc/<pid>/status in bytes (the kernel gives kB). */
async function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const line = status.split('\n').find((text) => text.startsWith(`${field}:`));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? Number.NaN) * 1024;
}

interface Watched<T> {
  value: T;
  /** The server's resident memory as the work began, and the highest reading while it ran. */
  rssBefore: number;
  rssPeak: number;
}

/** Reads the server's VmRSS every RSS_POLL_MS while `work` runs. */
async function watchServer<T>(pid: number, work: () => Promise<T>): Promise<Watched<T>> {
  const rssBefore = await statusBytes(pid, 'VmRSS');
  let rssPeak = rssBefore;
  const timer = setInterval(() => {
    void statusBytes(pid, 'VmRSS').then((rss) => (rssPeak = Math.max(rssPeak, rss)));
  }, RSS_POLL_MS);
  try {
    const value = await work();
    return { value, rssBefore, rssPeak: Math.max(rssPeak, await statusBytes(pid, 'VmRSS')) };
  } finally {
    clearInterval(timer);
  }
}

const details = (page: Page) => page.getByRole('region', { name: 'Entry details' }).or(page.getByLabel('Entry details'));
const filesOf = (page: Page) => details(page).getByRole('region', { name: 'Files' });

/** Waits for `wanted`; the section's alert (a refused or failed transfer) throws with its words instead. */
async function untilShown(wanted: Locator, files: Locator): Promise<void> {
  const alert = files.getByRole('alert');
  await wanted.or(alert).first().waitFor({ timeout: STEP_TIMEOUT_MS });
  if (await alert.isVisible()) throw new Error(`The files section says: ${await alert.textContent()}`);
}

/** The item view of SERVICE with its Files section listed, as e2e/attachments.test.ts opens it. */
async function openItem(page: Page): Promise<Locator> {
  await page.getByRole('banner').getByRole('link', { name: 'Vault' }).first().click();
  const row = page
    .getByRole('list', { name: 'Saved passwords' })
    .getByRole('listitem')
    .filter({ has: page.getByText(SERVICE, { exact: true }) });
  await row.getByRole('button', { name: SERVICE, exact: true }).click();
  const files = filesOf(page);
  await files.getByText('No files attached.').waitFor();
  return files;
}

interface StepFigures {
  /** From the person's act to the result shown (upload) or on disk (download). */
  ms: number;
  /** Of which the page waited on the server: the named requests, request sent → last byte in (resource timing). */
  serverMs: number;
}

/** The page's requests whose URL matches `pattern` since the last clear, each request start → response end, summed. */
function requestTime(page: Page, pattern: string): Promise<number> {
  return page.evaluate((source) => {
    const wanted = new RegExp(source);
    return performance
      .getEntriesByType('resource')
      .filter((entry) => wanted.test(entry.name))
      .reduce((sum, entry) => sum + (entry as PerformanceResourceTiming).responseEnd - entry.startTime, 0);
  }, pattern);
}

interface PartWaits {
  ms: number;
}

/**
 * Installed before the app's scripts: the page's fetch calls for the upload's parts and its
 * finish, call → answer, summed. Chromium gives these PUTs no resource timing entry.
 */
function timeUploadCalls(): void {
  const native = window.fetch.bind(window);
  const state: PartWaits = { ms: 0 };
  (window as unknown as { __benchPartWaits: PartWaits }).__benchPartWaits = state;
  window.fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!/\/content\?offset=\d+$|\/finish$/.test(url)) return native(input, init);
    const start = performance.now();
    try {
      return await native(input, init);
    } finally {
      state.ms += performance.now() - start;
    }
  };
}

/**
 * Add file → the browser's file chooser; the clock starts as the file is picked and stops when
 * its row is listed (sealed, sent in parts, finished, listed again). The parts go one after
 * another, each sealed before it is sent, so the server's share is the parts' and finish's time.
 */
async function upload(page: Page, files: Locator, path: string): Promise<StepFigures> {
  await page.evaluate(() => ((window as unknown as { __benchPartWaits: PartWaits }).__benchPartWaits.ms = 0));
  const chooser = page.waitForEvent('filechooser');
  await files.getByRole('button', { name: 'Add file', exact: true }).click();
  const picked = await chooser;
  const start = performance.now();
  await picked.setFiles(path);
  await untilShown(files.getByRole('listitem', { name: FILE_NAME }), files);
  const ms = performance.now() - start;
  return { ms, serverMs: await page.evaluate(() => (window as unknown as { __benchPartWaits: PartWaits }).__benchPartWaits.ms) };
}

/** Download → the browser's download complete on disk (every chunk fetched and checked first); its path. */
async function download(page: Page, files: Locator): Promise<StepFigures & { path: string }> {
  await page.evaluate(() => performance.clearResourceTimings());
  const started = page.waitForEvent('download', { timeout: STEP_TIMEOUT_MS });
  const alert = files.getByRole('alert');
  const start = performance.now();
  await files.getByRole('button', { name: `Download ${FILE_NAME}`, exact: true }).click();
  const path = await Promise.race([
    started.then((event) => event.path()),
    alert.waitFor({ timeout: STEP_TIMEOUT_MS }).then(async () => {
      throw new Error(`The files section says: ${await alert.textContent()}`);
    }),
  ]);
  const ms = performance.now() - start;
  return { path, ms, serverMs: await requestTime(page, '/content$') };
}

interface CeilingFigures {
  readMs: number;
  encryptMs: number[];
  decryptMs: number[];
}

/**
 * The ceiling, in the same page: the same file picked into an input of the bench's, read
 * whole (in the app's 1 MiB slices, timed apart), then AES-256-GCM over it in chunks of the
 * app's size, one call at a time as the app makes them, and the chunks decrypted again. No
 * associated data, no copying into parts, no network: WebCrypto alone.
 */
async function measureCeiling(page: Page, path: string): Promise<CeilingFigures> {
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'bench-ceiling-file';
    input.hidden = true;
    document.body.append(input);
  });
  await page.setInputFiles('#bench-ceiling-file', path);
  return page.evaluate(
    async ({ chunkBytes, runs }) => {
      const input = document.querySelector<HTMLInputElement>('#bench-ceiling-file')!;
      const file = input.files![0]!;
      const slice = 1024 * 1024;
      const readStart = performance.now();
      const bytes = new Uint8Array(file.size);
      for (let at = 0; at < file.size; at += slice) {
        bytes.set(new Uint8Array(await file.slice(at, at + slice).arrayBuffer()), at);
      }
      const readMs = performance.now() - readStart;
      input.remove();
      const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
      const encryptMs: number[] = [];
      const decryptMs: number[] = [];
      for (let run = 0; run < runs; run++) {
        const sealed: { iv: Uint8Array<ArrayBuffer>; data: ArrayBuffer }[] = [];
        let start = performance.now();
        for (let at = 0; at < bytes.length; at += chunkBytes) {
          const iv = crypto.getRandomValues(new Uint8Array(12));
          sealed.push({
            iv,
            data: await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, bytes.subarray(at, at + chunkBytes)),
          });
        }
        encryptMs.push(performance.now() - start);
        start = performance.now();
        for (const { iv, data } of sealed) await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, key, data);
        decryptMs.push(performance.now() - start);
      }
      return { readMs, encryptMs, decryptMs };
    },
    { chunkBytes: ATTACHMENT_CHUNK_BYTES, runs: CEILING_RUNS },
  );
}

const mibPerSecond = (ms: number) => FILE_MIB / (ms / 1000);
const inMib = (bytes: number) => bytes / MiB;

/**
 * Decision 0071 in Chromium against the production server on SQLite: a FILE_MIB file added
 * through the item view's Add file and downloaded again, each beside the bare WebCrypto work
 * on the same bytes in the same page, and what the server process holds meanwhile.
 */
export async function attachmentsBench(): Promise<void> {
  if (!Number.isInteger(FILE_MIB) || FILE_MIB < 1) throw new Error(`BENCH_ATTACHMENT_MB must be a whole number above 0`);
  printHeading(`Attachments: a ${FILE_MIB} MiB file through the item view`);
  const dir = await mkdtemp(join(tmpdir(), 'lockit-bench-attachment-'));
  const db = await createServerDatabase('sqlite', 'lockit-bench-attachments');
  try {
    const path = join(dir, FILE_NAME);
    const original = await writeRandomFile(path, FILE_MIB * MiB);
    const { server: seeding, inbox } = await startSeedingServer(db);
    try {
      const keys = await prepareKeys(PASSWORD);
      const session = await createSignedInAccount(seeding.url, inbox, keys, USER, clientIp(1));
      await addRealisticItems(session, keys.vaultKey, 1, 1);
    } finally {
      await seeding.stop();
    }
    // The product's defaults, unless the file is past its per-file limit of 100 MiB.
    const env: Record<string, string> = FILE_MIB > 100 ? { ATTACHMENT_MAX_FILE_MEGABYTES: String(FILE_MIB) } : {};
    const server = await startLockitServer({ db, env });
    const browser = await launchBrowser();
    try {
      const page = await newProbedPage(browser, server.url);
      await page.context().addInitScript(timeUploadCalls);
      await signInThroughUi(page, USER, PASSWORD);
      const files = await openItem(page);
      const up = await watchServer(server.pid, () => upload(page, files, path));
      const down = await watchServer(server.pid, () => download(page, files));
      const received = await sha256OfFile(down.value.path);
      if (received !== original) throw new Error(`The downloaded file's SHA-256 ${received} is not the original's ${original}.`);
      const lifetimePeak = await statusBytes(server.pid, 'VmHWM');
      const ceiling = await measureCeiling(page, path);
      const encrypt = median(ceiling.encryptMs);
      const decrypt = median(ceiling.decryptMs);
      printTable(
        `${FILE_MIB} MiB through the item view, SQLite, one upload and one download; ceiling: median of ${CEILING_RUNS} in the same page`,
        ['step', 'ms', 'MiB/s'],
        [
          ['upload: file picked → listed (sealed, sent in 4 MiB parts, finished)', up.value.ms, mibPerSecond(up.value.ms)],
          ['  of which waiting on the server (parts and finish)', up.value.serverMs, ''],
          ['download: click → the download complete (every chunk checked)', down.value.ms, mibPerSecond(down.value.ms)],
          ['  of which the content arriving (request → last byte)', down.value.serverMs, ''],
          [`ceiling: AES-256-GCM encrypt, ${ATTACHMENT_CHUNK_BYTES / 1024} KiB chunks`, encrypt, mibPerSecond(encrypt)],
          [`ceiling: AES-256-GCM decrypt, ${ATTACHMENT_CHUNK_BYTES / 1024} KiB chunks`, decrypt, mibPerSecond(decrypt)],
          ['the same file read in 1 MiB slices, no crypto (reference)', ceiling.readMs, mibPerSecond(ceiling.readMs)],
        ],
      );
      console.log(`The downloaded bytes' SHA-256 is the original's: ${original}`);
      printTable(
        `The server process (pid ${server.pid}), resident memory read every ${RSS_POLL_MS} ms`,
        ['when', 'MiB', 'growth MiB'],
        [
          ['before the upload', inMib(up.rssBefore), 0],
          ['peak during the upload', inMib(up.rssPeak), inMib(up.rssPeak - up.rssBefore)],
          ['peak during the download', inMib(down.rssPeak), inMib(down.rssPeak - up.rssBefore)],
          ['VmHWM at the end (its peak since it started)', inMib(lifetimePeak), inMib(lifetimePeak - up.rssBefore)],
        ],
      );
      console.log(`\nAt the end: ${describeMachine()}`);
    } finally {
      await browser.close();
      await server.stop();
    }
  } finally {
    await db.drop();
    await rm(dir, { recursive: true, force: true });
  }
}
