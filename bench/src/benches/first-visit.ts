import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '@lockit/test-support/chromium';
import { createServerDatabase } from '@lockit/test-support';
import { printHeading, printTable, verdict, type Cell } from '../support/report';
import { startLockitServer, webDist } from '../support/server-process';

const BUDGET_JS_GZIP = 100_000;
const BUDGET_SCORE = 95;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const kB = (bytes: number) => bytes / 1000;

interface Asset {
  path: string;
  raw: number;
  gzip: number;
}

/** Sizes from the built files themselves: gzip level 9 is what a compressing proxy could send. */
function asset(path: string): Asset {
  const bytes = readFileSync(join(webDist, path));
  return { path, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

const isJs = (path: string) => path.endsWith('.js');
const isCss = (path: string) => path.endsWith('.css');

/** What index.html asks for before any script runs: the entry, its modulepreloads, the CSS. */
function entryAssets(): string[] {
  const html = readFileSync(join(webDist, 'index.html'), 'utf8');
  const found: string[] = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const module = /type="module"/.test(tag) && /src="([^"]+)"/.exec(tag);
    const linked = /rel="(modulepreload|stylesheet)"/.test(tag) && /href="([^"]+)"/.exec(tag);
    const path = (module || linked || [])[1];
    if (path) found.push(path.replace(/^\//, ''));
  }
  return found;
}

interface Totals {
  jsFiles: number;
  jsRaw: number;
  jsGzip: number;
  cssRaw: number;
  cssGzip: number;
}

function totals(paths: string[]): Totals {
  const assets = paths.map(asset);
  const add = (pick: (path: string) => boolean, key: 'raw' | 'gzip') =>
    assets.filter((a) => pick(a.path)).reduce((sum, a) => sum + a[key], 0);
  const jsFiles = assets.filter((a) => isJs(a.path)).length;
  return { jsFiles, jsRaw: add(isJs, 'raw'), jsGzip: add(isJs, 'gzip'), cssRaw: add(isCss, 'raw'), cssGzip: add(isCss, 'gzip') };
}

const sums = (paths: string[]): Cell[] => {
  const t = totals(paths);
  return [t.jsFiles, kB(t.jsRaw), kB(t.jsGzip), kB(t.cssRaw), kB(t.cssGzip)];
};

interface Visit {
  fcp: number;
  beforePaint: string[];
  byIdle: string[];
}

/**
 * A first visit in headless Chromium, cache empty: the JS and CSS requested before the
 * first contentful paint (resource timing's startTime against the paint entry) and all of
 * them once the network is idle (lazy route chunks included).
 */
async function visit(baseUrl: string, path: string): Promise<Visit> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_FLAGS] });
  try {
    const page = await browser.newPage();
    await page.goto(`${baseUrl}${path}`, { waitUntil: 'networkidle' });
    const timing = await page.evaluate(() => ({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
      resources: performance.getEntriesByType('resource').map((r) => ({ url: r.name, start: r.startTime })),
    }));
    const assets = timing.resources
      .map((r) => ({ path: new URL(r.url).pathname.replace(/^\//, ''), start: r.start }))
      .filter((r) => isJs(r.path) || isCss(r.path));
    return {
      fcp: timing.fcp,
      beforePaint: assets.filter((a) => a.start < timing.fcp).map((a) => a.path),
      byIdle: assets.map((a) => a.path),
    };
  } finally {
    await browser.close();
  }
}

/** Issue 6, part 4: what a first visit costs, and Lighthouse's mobile scores for /home. */
export async function firstVisitBench(): Promise<void> {
  printHeading('First visit: JS and CSS before first paint, Lighthouse (mobile) on /home');
  const db = await createServerDatabase('sqlite', 'lockit-bench-first-visit');
  const server = await startLockitServer({ db });
  try {
    const entry = entryAssets();
    const root = await visit(server.url, '/');
    const home = await visit(server.url, '/home');
    const homeJsGzip = totals(home.beforePaint).jsGzip;
    const header = ['visit', 'JS files', 'JS raw kB', 'JS gzip kB', 'CSS raw kB', 'CSS gzip kB', 'budget', ''];
    printTable(
      "JS and CSS of a first visit (kB = 1000 bytes; gzip -9 of the built files; the server sends the build's Brotli or gzip copies)",
      header,
      [
        ['index.html: entry script, modulepreloads, stylesheets', ...sums(entry), '', ''],
        [`/ requested before first paint (FCP ${root.fcp.toFixed(0)} ms)`, ...sums(root.beforePaint), '', ''],
        ['/ requested by network idle', ...sums(root.byIdle), '', ''],
        [
          `/home requested before first paint (FCP ${home.fcp.toFixed(0)} ms)`,
          ...sums(home.beforePaint),
          `JS gzip < ${kB(BUDGET_JS_GZIP)} kB`,
          verdict(homeJsGzip < BUDGET_JS_GZIP),
        ],
        ['/home requested by network idle', ...sums(home.byIdle), '', ''],
      ],
    );
    const files = [...new Set([...entry, ...root.byIdle, ...home.byIdle])];
    const where = (path: string) =>
      [
        entry.includes(path) ? 'index.html' : '',
        root.beforePaint.includes(path) ? '/ paint' : root.byIdle.includes(path) ? '/ idle' : '',
        home.beforePaint.includes(path) ? '/home paint' : home.byIdle.includes(path) ? '/home idle' : '',
      ]
        .filter(Boolean)
        .join(', ');
    printTable(
      'Files loaded (paint: requested before first paint; idle: requested later, by network idle)',
      ['file', 'raw kB', 'gzip kB', 'loaded by'],
      files.map(asset).map((a) => [a.path, kB(a.raw), kB(a.gzip), where(a.path)]),
    );
    const vaultOnHome = home.byIdle.filter((path) => /vault-page-[^/]*\.js$/.test(path));
    console.log(
      `vault chunk (vault-page-*.js) loaded on /home: ${vaultOnHome.length ? vaultOnHome.join(', ') : 'no'} — ${verdict(vaultOnHome.length === 0)}`,
    );

    await lighthouseScores(`${server.url}/home`);
  } finally {
    await server.stop();
    await db.drop();
  }
}

/**
 * Lighthouse in its default (mobile) config against Debian's Chromium: everything it needs
 * ships in the npm package, so nothing is fetched beyond the page under test on localhost.
 */
async function lighthouseScores(url: string): Promise<void> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS],
    logLevel: 'silent',
  });
  try {
    const result = await lighthouse(url, { port: chrome.port, logLevel: 'error', output: 'json', onlyCategories: CATEGORIES });
    if (!result) throw new Error('Lighthouse returned no result');
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const rows: Cell[][] = CATEGORIES.map((id) => {
      const score = Math.round((lhr.categories[id]?.score ?? 0) * 100);
      return [lhr.categories[id]?.title ?? id, score, `≥ ${BUDGET_SCORE}`, verdict(score >= BUDGET_SCORE)];
    });
    printTable(
      `Lighthouse ${lhr.lighthouseVersion}, ${lhr.configSettings.formFactor} preset (${lhr.configSettings.throttlingMethod} throttling), ${url}`,
      ['category', 'score', 'budget', ''],
      rows,
    );
    const metrics = [
      'first-contentful-paint',
      'largest-contentful-paint',
      'total-blocking-time',
      'cumulative-layout-shift',
      'speed-index',
    ];
    printTable(
      'Lighthouse metrics (simulated mobile)',
      ['metric', 'value', 'score'],
      metrics.map((id) => [
        lhr.audits[id]?.title ?? id,
        lhr.audits[id]?.displayValue ?? '',
        Math.round((lhr.audits[id]?.score ?? 0) * 100),
      ]),
    );
    // Every audit that did not pass, in every category (not only those under budget), so
    // what Lighthouse says about plain-HTTP localhost (HTTPS, HSTS) is visible too.
    const failing: Cell[][] = [];
    for (const id of CATEGORIES) {
      for (const ref of lhr.categories[id]?.auditRefs ?? []) {
        const audit = lhr.audits[ref.id];
        if (!audit || audit.score === null || audit.score >= 0.9) continue;
        if (audit.scoreDisplayMode === 'informative' || audit.scoreDisplayMode === 'notApplicable') continue;
        failing.push([id, ref.id, audit.title, ref.weight, audit.score, audit.displayValue ?? '', firstItem(audit.details)]);
      }
    }
    if (failing.length)
      printTable(
        'Lighthouse audits below 0.9',
        ['category', 'audit', 'title', 'weight', 'score', 'value', 'first item'],
        failing,
      );
    else console.log('Lighthouse: no audit below 0.9');
    // The plain-HTTP server on localhost: what the transport-security audits make of it.
    for (const id of ['is-on-https', 'redirects-http', 'has-hsts']) {
      const audit = lhr.audits[id];
      if (audit)
        console.log(`Lighthouse ${id}: ${audit.scoreDisplayMode} ${audit.score ?? '-'} ${firstItem(audit.details)}`.trim());
    }
  } finally {
    chrome.kill();
  }
}

/** The first row of an audit's details, shortened: enough to see the cause in the table. */
function firstItem(details: unknown): string {
  const items = (details as { items?: unknown[] } | undefined)?.items;
  const item = items?.[0] as Record<string, unknown> | undefined;
  if (!item) return '';
  const text = ['description', 'message', 'issueType', 'url', 'node']
    .map((key) => item[key])
    .map((value) => (typeof value === 'object' && value ? (value as { snippet?: string }).snippet : value))
    .find((value) => typeof value === 'string');
  if (typeof text !== 'string') return '';
  const line = typeof item.line === 'string' ? ` "${item.line}"` : '';
  return `${text}${line}${items && items.length > 1 ? ` (+${items.length - 1} more)` : ''}`.slice(0, 110);
}
