import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '@lockit/test-support/chromium';

/** One cold visit: a new browser profile, so nothing is cached. */
export interface PaintVisit {
  /** First contentful paint (ms from navigation start). */
  fcp: number;
  /** Largest contentful paint, the last candidate once the page has settled. */
  lcp: number;
  /** Cumulative layout shift, not after input, until the app has run and the network is idle. */
  cls: number;
  /** Paths of the JS and CSS requested before the first contentful paint, and by network idle. */
  beforePaint: string[];
  byIdle: string[];
}

const isAsset = (path: string) => path.endsWith('.js') || path.endsWith('.css');

/**
 * `runs` cold visits of `url` in headless Chromium with no CPU or network throttling (the
 * browser and the server on the same 2-core machine), one browser for all, a fresh context
 * (empty cache, no cookies) for each.
 */
export async function coldVisits(url: string, runs: number): Promise<PaintVisit[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_FLAGS] });
  const visits: PaintVisit[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(url, { waitUntil: 'networkidle' });
      const seen = await page.evaluate(
        () =>
          new Promise<{ fcp: number; lcp: number; cls: number; resources: { url: string; start: number }[] }>((resolve) => {
            let lcp = Number.NaN;
            let cls = 0;
            new PerformanceObserver((list) => {
              for (const entry of list.getEntries()) lcp = entry.startTime;
            }).observe({ type: 'largest-contentful-paint', buffered: true });
            new PerformanceObserver((list) => {
              for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
                if (!entry.hadRecentInput) cls += entry.value;
            }).observe({ type: 'layout-shift', buffered: true });
            // Buffered entries arrive in the observers' first callbacks, before this timer.
            setTimeout(
              () =>
                resolve({
                  fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
                  lcp,
                  cls,
                  resources: performance
                    .getEntriesByType('resource')
                    .map((entry) => ({ url: entry.name, start: entry.startTime })),
                }),
              100,
            );
          }),
      );
      const assets = seen.resources
        .map((resource) => ({ path: new URL(resource.url).pathname.replace(/^\//, ''), start: resource.start }))
        .filter((resource) => isAsset(resource.path));
      visits.push({
        fcp: seen.fcp,
        lcp: seen.lcp,
        cls: seen.cls,
        beforePaint: assets.filter((asset) => asset.start < seen.fcp).map((asset) => asset.path),
        byIdle: assets.map((asset) => asset.path),
      });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return visits;
}

export interface BarePage {
  url: string;
  /** Bytes of HTML and CSS it sends, uncompressed. */
  bytes: number;
  stop(): Promise<void>;
}

/**
 * The ceiling of a first paint: the same prerendered HTML and the same stylesheet as the
 * app's page, with its script element removed, sent by a bare Node HTTP server (no framework,
 * no compression, no security headers). Nothing but the bytes themselves to paint.
 */
export async function startBarePage(webDist: string, pageFile: string): Promise<BarePage> {
  const html = readFileSync(join(webDist, pageFile), 'utf8').replace(/<script\b[^>]*><\/script>\s*/g, '');
  const cssPath = /<link rel="stylesheet"[^>]*href="([^"]+)"/.exec(html)?.[1];
  if (!cssPath) throw new Error(`${pageFile} links no stylesheet.`);
  const css = readFileSync(join(webDist, cssPath));
  const server = createServer((request, response) => {
    if (request.url === cssPath) {
      response.writeHead(200, { 'content-type': 'text/css' }).end(css);
    } else if (request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    bytes: Buffer.byteLength(html) + css.length,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
