import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import WebSocket from 'ws';
import { repoRoot } from '@lockit/test-support';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '@lockit/test-support/chromium';
import { stopExtensionWorker } from './extension-worker';

/** The built extension as Chromium loads it unpacked (`npm run build`). */
export const EXTENSION_DIR = join(repoRoot, 'packages/extension/dist/chromium');

export interface ExtensionBrowser {
  context: BrowserContext;
  /** Lockit's id, and the id of the bare extension (the ceilings' pages, no worker). */
  lockitId: string;
  bareId: string;
  /** Lockit's service worker, the one that holds the key. */
  worker(): Promise<Worker>;
  /** The JS heap of Lockit's running worker after a garbage collection, from the DevTools protocol. */
  workerHeap(): Promise<{ usedSize: number; totalSize: number }>;
  /** Stops an extension's service worker (Lockit's or the bare one's), as the browser does when it is idle. */
  stopWorker(extensionId: string): Promise<void>;
  close(): Promise<void>;
}

/** tsx's keepNames calls `__name` in functions sent to a page or worker (see browser.ts). */
const NAME_SHIM = 'globalThis.__name ??= (fn) => fn;';

/**
 * A second unpacked extension: `list.html?n=N` builds N rows of the popup's list markup
 * (Lockit's own stylesheet) in one DOM insertion, `blank.html` is empty, and `sw.js` is a
 * service worker that answers every message at once. They are the ceilings: an extension page
 * opening with no message, no decryption, no React; a worker woken with no code of its own.
 */
function writeBareExtension(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const manifest = {
    manifest_version: 3,
    name: 'Lockit bench ceiling',
    version: '0.0.1',
    background: { service_worker: 'sw.js', type: 'module' },
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  writeFileSync(
    join(dir, 'sw.js'),
    'chrome.runtime.onMessage.addListener((message, _sender, reply) => { reply({ ok: true, value: message.type }); });',
  );
  copyFileSync(join(EXTENSION_DIR, 'popup.css'), join(dir, 'popup.css'));
  writeFileSync(
    join(dir, 'blank.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>blank</title></head><body></body></html>',
  );
  writeFileSync(
    join(dir, 'list.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>list</title><link rel="stylesheet" href="popup.css"></head><body><div id="root"></div><script type="module" src="list.js"></script></body></html>',
  );
  // The markup of the popup's ItemList (src/popup/vault-view.tsx): name, user, three buttons.
  const script = `
const count = Number(new URLSearchParams(location.search).get('n'));
const list = document.createElement('ul');
list.className = 'items';
for (let n = 0; n < count; n++) {
  const item = document.createElement('li');
  item.className = 'item';
  item.innerHTML = '<div class="item-text"><span class="item-name"></span><span class="item-user"></span></div>' +
    '<div class="item-actions"><button type="button">Fill</button><button type="button">User</button><button type="button">Pass</button></div>';
  item.querySelector('.item-name').textContent = 'Service ' + n;
  item.querySelector('.item-user').textContent = 'user' + n + '@example.com';
  list.append(item);
}
const section = document.createElement('section');
section.className = 'vault';
section.append(list);
document.getElementById('root').append(section);
`;
  writeFileSync(join(dir, 'list.js'), script);
}

/**
 * Debian's Chromium in its new headless mode with Lockit and the bare extension loaded, a
 * profile of its own, `*.test` resolved to this machine, and a DevTools port (Playwright
 * offers no protocol session on a service worker; the heap is read through the port).
 */
export async function launchExtensionBrowser(): Promise<ExtensionBrowser> {
  if (!existsSync(join(EXTENSION_DIR, 'manifest.json'))) throw new Error('Build the extension first: npm run build');
  const home = mkdtempSync(join(tmpdir(), 'lockit-bench-extension-'));
  const bareDir = join(home, 'bare');
  writeBareExtension(bareDir);
  const profile = join(home, 'profile');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport: { width: 360, height: 540 },
    args: [
      ...CHROMIUM_FLAGS,
      `--disable-extensions-except=${EXTENSION_DIR},${bareDir}`,
      `--load-extension=${EXTENSION_DIR},${bareDir}`,
      '--host-resolver-rules=MAP *.test 127.0.0.1',
      '--remote-debugging-port=0',
    ],
  });
  await context.addInitScript({ content: NAME_SHIM });
  const lockitId = extensionIdOf(EXTENSION_DIR);
  // Two extensions run workers: Lockit's is the one under its id.
  const worker = async () => {
    const isLockit = (candidate: Worker) => candidate.url().startsWith(`chrome-extension://${lockitId}/`);
    const running =
      context.serviceWorkers().find(isLockit) ?? (await context.waitForEvent('serviceworker', { predicate: isLockit }));
    await running.evaluate(NAME_SHIM);
    return running;
  };
  await worker();
  const bareId = await bareExtensionId(context, bareDir);
  const port = Number(readFileSync(join(profile, 'DevToolsActivePort'), 'utf8').split('\n')[0]);
  return {
    context,
    lockitId,
    bareId,
    worker,
    async workerHeap() {
      const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
        type: string;
        url: string;
        webSocketDebuggerUrl: string;
      }>;
      const target = targets.find((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${lockitId}/`));
      if (!target) throw new Error('Lockit’s service worker is not running.');
      return onTarget(target.webSocketDebuggerUrl, async (send) => {
        await send('HeapProfiler.collectGarbage');
        return (await send('Runtime.getHeapUsage')) as { usedSize: number; totalSize: number };
      });
    },
    async stopWorker(extensionId) {
      await stopExtensionWorker(context, extensionId);
    },
    async close() {
      await context.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** The id Chromium gives an unpacked extension: the first 32 hex digits of the SHA-256 of its folder's path, each written as a letter a–p. */
function extensionIdOf(dir: string): string {
  const hex = createHash('sha256').update(realpathSync(dir)).digest('hex').slice(0, 32);
  return [...hex].map((digit) => String.fromCharCode(97 + parseInt(digit, 16))).join('');
}

/** The bare extension's id (extensionIdOf), checked by opening its blank page. */
async function bareExtensionId(context: BrowserContext, dir: string): Promise<string> {
  const id = extensionIdOf(dir);
  const page = await context.newPage();
  try {
    await page.goto(`chrome-extension://${id}/blank.html`);
    if ((await page.title()) !== 'blank') throw new Error('The bare extension did not load.');
    return id;
  } finally {
    await page.close();
  }
}

type Send = (method: string, params?: object) => Promise<unknown>;

/** Runs `work` over a DevTools protocol connection to one target. */
async function onTarget<T>(url: string, work: (send: Send) => Promise<T>): Promise<T> {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { id?: number; result?: unknown; error?: { message: string } };
    const pending = message.id === undefined ? undefined : waiting.get(message.id);
    if (!pending) return;
    if (message.error) pending.reject(new Error(message.error.message));
    else pending.resolve(message.result);
  });
  let next = 0;
  const send: Send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      waiting.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    return await work(send);
  } finally {
    socket.close();
  }
}

/** Opens an extension page in `page` and resolves when `rows` list rows are in a painted frame: ms from navigation start. */
export async function timeToRows(page: Page, url: string, rows: number): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  return page.evaluate(
    (expected) =>
      new Promise<number>((resolve, reject) => {
        setTimeout(() => reject(new Error(`${location.pathname}: fewer than ${expected} rows after 60 s`)), 60_000);
        // Rows in the DOM at a frame's start are painted in that frame; the next frame's start follows the paint.
        const check = () => {
          if (document.querySelectorAll('li.item').length >= expected) requestAnimationFrame(() => resolve(performance.now()));
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
    rows,
  );
}

/** Opens a blank extension page: ms from navigation start to its first frame after load. */
export async function timeBlank(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  return page.evaluate(
    () => new Promise<number>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now())))),
  );
}

/**
 * How many of the popup's list rows a person sees once it has settled: rows inside the window
 * and inside every scrolling box around them. A virtualized list keeps a few more in the DOM,
 * out of sight; the ceiling page draws this many.
 */
export async function rowsInView(page: Page): Promise<number> {
  await page.locator('li.item').first().waitFor();
  return page.evaluate(() => {
    const seen = (row: Element) => {
      const box = row.getBoundingClientRect();
      let top = Math.max(box.top, 0);
      let bottom = Math.min(box.bottom, innerHeight);
      for (let parent = row.parentElement; parent; parent = parent.parentElement) {
        if (!/(auto|scroll)/.test(getComputedStyle(parent).overflowY)) continue;
        const clip = parent.getBoundingClientRect();
        top = Math.max(top, clip.top);
        bottom = Math.min(bottom, clip.bottom);
      }
      return bottom > top;
    };
    return Array.from(document.querySelectorAll('li.item')).filter(seen).length;
  });
}

/**
 * Opens the popup and times two frames from navigation start: the first with `rows` list rows
 * in the DOM (what a person sees), and the first whose rows say the list holds all `total`
 * items (aria-setsize: scrollable to the end; the popup paints a first page, then the rest).
 */
export async function timeToWholeList(
  page: Page,
  url: string,
  rows: number,
  total: number,
): Promise<{ painted: number; whole: number }> {
  await page.goto(url, { waitUntil: 'commit' });
  return page.evaluate(
    ({ expected, all }) =>
      new Promise<{ painted: number; whole: number }>((resolve, reject) => {
        setTimeout(() => reject(new Error(`${location.pathname}: not all ${all} items listed after 60 s`)), 60_000);
        let painted: number | undefined;
        const check = () => {
          const listed = document.querySelectorAll('li.item');
          if (painted === undefined && listed.length >= expected) {
            requestAnimationFrame(() => (painted = performance.now()));
          }
          if (document.querySelector(`li.item[aria-setsize="${all}"]`) !== null) {
            requestAnimationFrame(() => resolve({ painted: painted ?? performance.now(), whole: performance.now() }));
          } else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
    { expected: rows, all: total },
  );
}
