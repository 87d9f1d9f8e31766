import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { createServerDatabase, startServerProcess, webDist, type ServerDatabase, type ServerProcess } from '@lockit/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServedCodeStatus } from '../src/shared/messages';
import { EXTENSION_DIR, launchWithExtension, type ExtensionBrowser } from './support/extension-browser';
import { ask, expectOk } from './support/popup-requests';

const SCREENSHOTS = resolve(import.meta.dirname, '../../../test-results/extension');

interface WebServer {
  server: ServerProcess;
  database: ServerDatabase;
}

let browser: ExtensionBrowser;
let honest: WebServer;
let tampered: WebServer;
let tamperedDist: string;
/** The boot script every landing page loads, as /assets/<name>. */
let bootScript: string;
/** The KDF worker's script, as /assets/<name>. */
let kdfWorker: string;

/** An operator's own credit and links: runtime settings, written into the HTML, never the scripts. */
const OPERATOR = {
  LOCKIT_AUTHOR_NAME: 'Ada Lovelace',
  LOCKIT_AUTHOR_URL: 'https://ada.example.org/',
  LOCKIT_SOCIAL_LINKS: 'GitHub=https://github.com/ada',
};

async function startWebServer(dist: string, name: string, settings: Record<string, string> = {}): Promise<WebServer> {
  const database = await createServerDatabase('sqlite', name);
  const server = await startServerProcess({ webApp: true, env: { ...database.env, WEB_DIST_DIR: dist, ...settings } });
  return { server, database };
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  bootScript = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"/.exec(
    readFileSync(join(webDist, 'pages/signin.html'), 'utf8'),
  )![1]!;
  // The same release with one byte of the boot script changed (its last newline made a space, still
  // valid JavaScript), and its compressed copies removed so the server sends the changed file.
  tamperedDist = mkdtempSync(join(tmpdir(), 'lockit-tampered-web-'));
  cpSync(webDist, tamperedDist, { recursive: true });
  const file = join(tamperedDist, bootScript);
  const bytes = readFileSync(file);
  bytes[bytes.length - 1] = 0x20;
  writeFileSync(file, bytes);
  rmSync(`${file}.br`, { force: true });
  rmSync(`${file}.gz`, { force: true });
  // And the service worker the page registers, and a worker it starts, the same way.
  kdfWorker = `/assets/${readdirSync(join(webDist, 'assets')).find((name) => /^kdf-worker-[\w-]+\.js$/.test(name))}`;
  for (const path of ['/sw.js', kdfWorker]) {
    const worker = join(tamperedDist, path);
    writeFileSync(worker, `${readFileSync(worker, 'utf8').trimEnd()} \n`);
    rmSync(`${worker}.br`, { force: true });
    rmSync(`${worker}.gz`, { force: true });
  }
  // And an inline script in the sign-in page (the server's CSP would block it; a hostile
  // server would drop the CSP).
  const signin = join(tamperedDist, 'pages/signin.html');
  writeFileSync(signin, readFileSync(signin, 'utf8').replace('</body>', '<script>steal()</script></body>'));
  rmSync(`${signin}.br`, { force: true });
  rmSync(`${signin}.gz`, { force: true });
  [honest, tampered] = await Promise.all([
    startWebServer(webDist, 'served-honest', OPERATOR),
    startWebServer(tamperedDist, 'served-tampered'),
  ]);
  browser = await launchWithExtension();
});

afterAll(async () => {
  await browser?.close();
  for (const started of [honest, tampered]) {
    await started?.server.stop();
    await started?.database.drop();
  }
  rmSync(tamperedDist, { recursive: true, force: true });
});

/** Connects the extension to `server` by the popup's own request (the check needs no sign-in). */
async function connectTo(server: ServerProcess): Promise<void> {
  const popup = await browser.openPopup();
  await expectOk(ask(popup, { type: 'connect', server: server.url }));
  await popup.close();
  // The watcher is registered for the server's pages once the worker has seen the new setting.
  const worker = await browser.worker();
  await expect
    .poll(() =>
      worker.evaluate(async () => (await chrome.scripting.getRegisteredContentScripts()).map((script) => script.matches)),
    )
    .toEqual([['http://127.0.0.1/*']]);
}

/** The tab's verdict once the page's watcher has reported. */
async function verdictOf(page: Page): Promise<ServedCodeStatus> {
  const tabId = await browser.tabIdOf(page);
  const popup = await browser.openPopup();
  let found: ServedCodeStatus | null = null;
  await expect
    .poll(async () => {
      found = await expectOk(ask<ServedCodeStatus | null>(popup, { type: 'served-code-verdict', tabId }));
      return found;
    })
    .not.toBeNull();
  await popup.close();
  return found!;
}

async function badgeOf(page: Page): Promise<string> {
  const tabId = await browser.tabIdOf(page);
  return (await browser.worker()).evaluate((id) => chrome.action.getBadgeText({ tabId: id }), tabId);
}

describe('the extension checks the web vault its server serves against its own release', () => {
  it('says nothing alarming about the release’s own web app with the operator’s credit, and lists every file it checked', async () => {
    expect(EXTENSION_DIR).toBeTruthy();
    await connectTo(honest.server);
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${honest.server.url}/about`);
    await page.waitForLoadState('load');
    // The operator's credit, from the server's settings: in the prerendered HTML itself, and on the
    // page once the release's scripts have hydrated it.
    const html = await (await fetch(`${honest.server.url}/about`)).text();
    expect(html).toContain(
      'data-site="about-credit"><a href="https://ada.example.org/" target="_blank" rel="noopener noreferrer">Ada Lovelace</a>',
    );
    expect(html).not.toContain('the Lockit contributors');
    const footer = page.getByRole('contentinfo');
    await expect
      .poll(() => footer.getByRole('link', { name: 'Ada Lovelace' }).getAttribute('href'))
      .toBe('https://ada.example.org/');
    await expect.poll(() => footer.getByRole('link', { name: 'GitHub' }).count()).toBe(1);
    await expect.poll(() => page.getByRole('main').getByRole('link', { name: 'Ada Lovelace' }).count()).toBe(1);
    // Hydrated without a mismatch: React reports one as an error.
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);
    const verdict = await verdictOf(page);
    expect(verdict.problems).toEqual([]);
    expect(verdict.matched).toBeGreaterThanOrEqual(3);
    expect(await badgeOf(page)).toBe('');
    // The release's own service worker, once the page registers it, is one more file that matches.
    await page.evaluate(() => navigator.serviceWorker.register('/sw.js'));
    await expect.poll(async () => verdictOf(page)).toEqual({ ...verdict, matched: verdict.matched + 1 });

    const popup = await browser.openPopup(page);
    await expect
      .poll(() => popup.getByRole('status').textContent())
      .toMatch(/^Web vault checked: its \d+ files are those of Lockit /);
    await expect.poll(() => popup.getByRole('alert').count()).toBe(0);
    await popup.screenshot({ path: join(SCREENSHOTS, 'served-code-checked.png') });
    await popup.close();
    await page.close();
  });

  it('warns in the badge and the popup, naming each file, when a byte of a script, a worker and the service worker differ, and an inline script', async () => {
    await connectTo(tampered.server);
    const page = await browser.context.newPage();
    await page.goto(`${tampered.server.url}/signin`);
    await page.waitForLoadState('load');
    // The page registers its service worker, as the vault page does once a person reached it.
    await page.evaluate(() => navigator.serviceWorker.register('/sw.js'));
    // And starts a worker, as unlocking does for the key derivation.
    await page.evaluate((url) => void new Worker(url, { type: 'module' }), kdfWorker);
    const changed = 'differs from this Lockit release (the bytes the page got)';
    // The boot script at once; the service worker once the page has registered it.
    const byName = (a: { what: string }, b: { what: string }) => a.what.localeCompare(b.what);
    await expect
      .poll(async () => (await verdictOf(page)).problems.sort(byName))
      .toEqual(
        [
          { what: `${tampered.server.url}${bootScript}`, problem: changed },
          { what: `${tampered.server.url}${kdfWorker}`, problem: changed },
          { what: `${tampered.server.url}/sw.js`, problem: changed },
          { what: 'inline script: steal()', problem: 'inline code, which Lockit’s web app never has' },
        ].sort(byName),
      );
    await expect.poll(() => badgeOf(page)).toBe('!');

    const popup = await browser.openPopup(page);
    const warning = popup.getByRole('alert');
    await expect.poll(() => warning.textContent()).toContain('Warning: this web vault is not Lockit’s code');
    expect(await warning.textContent()).toContain(bootScript);
    await popup.screenshot({ path: join(SCREENSHOTS, 'served-code-warning.png') });
    await popup.close();

    // The honest server's page, opened while connected elsewhere, is not judged at all.
    const other = await browser.context.newPage();
    await other.goto(`${honest.server.url}/signin`);
    const otherPopup = await browser.openPopup(other);
    await otherPopup.getByRole('heading', { name: 'Lockit' }).waitFor();
    expect(await otherPopup.getByRole('alert').count()).toBe(0);
    await otherPopup.close();
    await other.close();
    await page.close();
  });
});
