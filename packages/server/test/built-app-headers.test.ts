import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, PRERENDERED_PAGES } from '@lockit/contract';
import { webDist } from '@lockit/test-support';
import { createProcessDatabase, startServerProcess, type ProcessDatabase, type ServerProcess } from './helpers/server-process';

/**
 * The production server process serving the real web build (packages/web/dist, made by
 * `npm run build`, which `npm test` runs first): the headers a browser gets, and a page that
 * works under them.
 */
const indexHtml = path.join(webDist, 'index.html');

let database: ProcessDatabase;
let server: ServerProcess;

beforeAll(async () => {
  if (!existsSync(indexHtml)) throw new Error('The web app is not built: run `npm run build` first (npm test does).');
  database = await createProcessDatabase('sqlite');
  server = await startServerProcess({ ...database.env, WEB_DIST_DIR: webDist, TRUST_PROXY: '1' });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name = '', ...values]) => [name, values]),
  );
}

function expectBrowserHeaders(headers: Headers, label: string) {
  const csp = directives(headers.get('content-security-policy') ?? '');
  expect(csp.get('default-src'), label).toEqual(["'self'"]);
  expect(csp.get('script-src'), label).toEqual(["'self'", "'wasm-unsafe-eval'"]);
  expect(csp.get('style-src'), label).toEqual(["'self'"]);
  expect(csp.get('object-src'), label).toEqual(["'none'"]);
  expect(csp.get('base-uri'), label).toEqual(["'none'"]);
  expect(csp.get('frame-ancestors'), label).toEqual(["'none'"]);
  expect(headers.get('content-security-policy'), label).not.toMatch(/'unsafe-inline'|'unsafe-eval'|\*/);
  expect(headers.get('x-content-type-options'), label).toBe('nosniff');
  expect(headers.get('referrer-policy'), label).toBe('no-referrer');
  expect(headers.get('x-frame-options'), label).toBe('DENY');
  expect(headers.get('cross-origin-opener-policy'), label).toBe('same-origin');
  const permissions = headers.get('permissions-policy') ?? '';
  for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb'])
    expect(permissions, label).toContain(`${feature}=()`);
}

describe('the built web app, served by the production process', () => {
  const scripts = () => [...readFileSync(indexHtml, 'utf8').matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];

  it('has no inline script, inline handler, inline style or javascript: URL in index.html', () => {
    const html = readFileSync(indexHtml, 'utf8');
    expect(scripts().length).toBeGreaterThan(0);
    for (const [, attributes, content] of scripts()) {
      expect(attributes).toMatch(/\bsrc="\/assets\/[^"]+\.js"/);
      expect(content!.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/<style\b|\sstyle\s*=/i);
    expect(html).not.toMatch(/javascript:/i);
  });

  it('sends the security headers with / and with a client-side route such as /home', async () => {
    for (const page of ['/', '/home']) {
      const response = await fetch(`${server.url}${page}`);
      expect(response.status, page).toBe(200);
      expect(await response.text(), page).toContain('<div id="root">');
      expectBrowserHeaders(response.headers, page);
      expect(response.headers.get('strict-transport-security'), page).toBeNull();
    }
  });

  it('sends them with the scripts the page loads, and with API answers', async () => {
    for (const [, attributes] of scripts()) {
      const src = /src="([^"]+)"/.exec(attributes!)![1]!;
      const response = await fetch(`${server.url}${src}`);
      expect(response.status, src).toBe(200);
      expect(response.headers.get('content-type'), src).toMatch(/javascript/);
      expectBrowserHeaders(response.headers, src);
    }
    const api = await fetch(`${server.url}${apiPaths.profile}`);
    expect(api.status).toBe(401);
    expectBrowserHeaders(api.headers, apiPaths.profile);
    expect(api.headers.get('cache-control')).toBe('no-store');
  });

  it("sends the pages and everything they load as the build's Brotli copies, and robots.txt", async () => {
    const html = readFileSync(indexHtml, 'utf8');
    // The landing routes' prerendered pages, a client-side route's shell, and the assets.
    const builtFile = (url: string) =>
      url in PRERENDERED_PAGES ? PRERENDERED_PAGES[url as keyof typeof PRERENDERED_PAGES] : url === '/vault' ? 'index.html' : url;
    const files = [
      ...Object.keys(PRERENDERED_PAGES),
      '/vault',
      ...[...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!),
    ];
    expect(files.length).toBeGreaterThan(7);
    for (const file of files) {
      expect(existsSync(path.join(webDist, builtFile(file)) + '.br'), file).toBe(true);
      const response = await fetch(`${server.url}${file}`, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
      expect(response.status, file).toBe(200);
      expect(response.headers.get('content-encoding'), file).toBe('br');
      expect(response.headers.get('vary'), file).toMatch(/accept-encoding/i);
      // fetch decodes the Brotli: what arrives is the built file itself.
      expect(await response.text(), file).toBe(readFileSync(path.join(webDist, builtFile(file)), 'utf8'));
    }
    const robots = await fetch(`${server.url}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(robots.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await robots.text()).toMatch(/^User-agent: \*$/m);
  });

  it('adds HSTS over HTTPS (TLS ended by a trusted proxy)', async () => {
    for (const page of ['/', '/home', apiPaths.profile]) {
      const response = await fetch(`${server.url}${page}`, { headers: { 'x-forwarded-proto': 'https' } });
      const hsts = response.headers.get('strict-transport-security') ?? '';
      expect(Number(/max-age=(\d+)/.exec(hsts)?.[1]), page).toBeGreaterThanOrEqual(365 * 24 * 60 * 60);
      expect(hsts, page).toContain('includeSubDomains');
    }
  });
});
