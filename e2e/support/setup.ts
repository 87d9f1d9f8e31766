import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import {
  createServerDatabase,
  startServerProcess,
  startSmtpSink,
  type ServerDatabase,
  type ServerProcess,
  type SmtpSink,
} from '@lockit/test-support';
import { DESKTOP, launchChromium } from '@lockit/test-support/chromium';

export interface AppServer extends ServerProcess {
  /** The server's data folder and its SQLite file: what a database thief would take. */
  dataDir: string;
  databasePath: string;
}

export interface E2eRun {
  readonly smtp: SmtpSink;
  readonly server: AppServer;
  readonly browser: Browser;
  /**
   * Every page error and unexpected console error of the contexts made by `newContext` since
   * the last test ended. A test may assert on it mid-way; after each test it must be empty,
   * or that test fails.
   */
  readonly errors: string[];
  /** A fresh browser profile (own cookies and storage) on `baseURL`, default the app server. */
  newContext(options?: { baseURL?: string; viewport?: { width: number; height: number } }): Promise<BrowserContext>;
}

/**
 * One Chromium per worker, launched by the first file that needs it: the e2e files of a worker
 * share one module graph (isolate: false in vitest.config.ts), so later files reuse it instead
 * of paying a launch and a close each (1-2 s a file on 2 busy cores). Files never share pages,
 * cookies or storage: each test works in browser contexts of its own, and every context a file
 * made is closed when the file ends. Playwright ends the browser with the worker process.
 */
let workerBrowser: Promise<Browser> | undefined;

async function sharedBrowser(): Promise<Browser> {
  const current = workerBrowser ? await workerBrowser.catch(() => undefined) : undefined;
  // A browser that crashed or was closed is replaced rather than handed to the next file.
  if (current?.isConnected()) return current;
  workerBrowser = launchChromium();
  return workerBrowser;
}

/**
 * The setup every e2e file shares: a real SMTP sink, the production server on the built web
 * app with a fresh SQLite file, and the worker's Chromium; the server, sink and the file's
 * browser contexts are torn down after the file. Call it at the top of the file, before any
 * hook of the file's own (hooks run in registration order).
 */
export function useE2e(options: { serverEnv?: Record<string, string> } = {}): E2eRun {
  let database: ServerDatabase | undefined;
  const run = { errors: [] as string[] } as E2eRun & { smtp: SmtpSink; server: AppServer; browser: Browser };

  beforeAll(async () => {
    run.smtp = await startSmtpSink();
    database = await createServerDatabase('sqlite', 'lockit-e2e');
    const server = await startServerProcess({
      webApp: true,
      env: { ...database.env, SMTP_URL: run.smtp.url, MAIL_FROM: 'Lockit <no-reply@lockit.test>', ...options.serverEnv },
    });
    run.server = Object.assign(server, { dataDir: database.dataDir, databasePath: database.sqliteFile });
    run.browser = await sharedBrowser();
  });

  afterEach(() => {
    expect(run.errors.splice(0), 'page errors and unexpected console errors').toEqual([]);
  });

  afterAll(async () => {
    // Contexts the file's tests left open (made here or through run.browser) go with the file.
    await Promise.all(run.browser?.contexts().map((context) => context.close()) ?? []);
    await run.server?.stop();
    await database?.drop();
    await run.smtp?.close();
  });

  run.newContext = async ({ baseURL = run.server.url, viewport = DESKTOP } = {}) => {
    const context = await run.browser.newContext({ baseURL, viewport });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
    // A blocked eval or inline script is reported by this event, not on the console: turn it
    // into a console error so it fails the test (a CSP issue, e.g. a library's caught
    // `new Function` probe, is a failed Lighthouse audit too). Playwright injects this script
    // itself, so the page's CSP does not apply to it.
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`);
      });
    });
    recordPageErrors(context, run.errors);
    return context;
  };
  return run;
}

/**
 * Chromium reports every 4xx answer (e.g. the signed-out session check) as a console error of
 * its own; those are the API working as designed, not errors of the app.
 */
const EXPECTED_CONSOLE = /^Failed to load resource/;

function recordPageErrors(context: BrowserContext, errors: string[]): void {
  context.on('page', (page) => {
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && !EXPECTED_CONSOLE.test(message.text())) errors.push(`console.error: ${message.text()}`);
    });
  });
}
