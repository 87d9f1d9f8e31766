import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { useTestApp } from './helpers/test-app';

const INDEX_HTML = '<!doctype html><title>Lockit</title><div id="root"></div>';
const APP_JS = 'console.log("app");'.repeat(100);

/** A dist folder as the web build leaves it: text files with .br and .gz copies beside them. */
const dist = mkdtempSync(path.join(tmpdir(), 'lockit-web-'));
mkdirSync(path.join(dist, 'assets'));
function writeWithCopies(relative: string, text: string) {
  const file = path.join(dist, relative);
  writeFileSync(file, text);
  writeFileSync(`${file}.br`, brotliCompressSync(text));
  writeFileSync(`${file}.gz`, gzipSync(text));
}
writeWithCopies('index.html', INDEX_HTML);
// The build prerenders the landing routes; this one has the pages of / and /home only.
const HOME_HTML = '<!doctype html><title>Lockit</title><div id="root"><h1>Your passwords</h1></div>';
const SPLASH_HTML = '<!doctype html><title>Lockit</title><div id="root"><h1>Lockit</h1></div>';
mkdirSync(path.join(dist, 'pages'));
writeWithCopies(path.join('pages', 'home.html'), HOME_HTML);
writeWithCopies(path.join('pages', 'splash.html'), SPLASH_HTML);
writeWithCopies(path.join('assets', 'index-abc123.js'), APP_JS);
writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
writeFileSync(path.join(dist, 'robots.txt'), 'User-agent: *\nDisallow: /api/\n');

afterAll(() => rmSync(dist, { recursive: true, force: true }));

const h = useTestApp({ config: { webDistDir: dist } });
const apiOnly = useTestApp({ config: { webDistDir: path.join(dist, 'missing') } });

describe('the built web app', () => {
  it('serves the prerendered splash at / with no-cache and the security headers', async () => {
    const response = await h.client().get('/');
    expect(response.body).toBe(SPLASH_HTML);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<title>Lockit</title>');
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('serves hashed assets with a one-year immutable cache', async () => {
    const response = await h.client().get('/assets/index-abc123.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('revalidates other files', async () => {
    const response = await h.client().get('/favicon.svg');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('answers client-side routes with index.html', async () => {
    for (const route of ['/vault', '/profile', '/signin?next=%2Fvault']) {
      const response = await h.client().get(route);
      expect(response.statusCode, route).toBe(200);
      expect(response.body, route).toBe(INDEX_HTML);
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it("answers a landing route with its prerendered page, as the build's Brotli copy, with no-cache", async () => {
    for (const [route, html] of [
      ['/home', HOME_HTML],
      ['/home?from=menu', HOME_HTML],
      ['/', SPLASH_HTML],
    ] as const) {
      const response = await h.client().get(route, { headers: { 'accept-encoding': 'br' } });
      expect(response.statusCode, route).toBe(200);
      expect(response.headers['content-encoding'], route).toBe('br');
      expect(response.headers['content-type'], route).toContain('text/html');
      expect(response.headers['cache-control'], route).toBe('no-cache');
      expect(response.headers['content-security-policy'], route).toContain("script-src 'self'");
      expect(brotliDecompressSync(response.rawPayload).toString('utf8'), route).toBe(html);
    }
  });

  it('answers a landing route the build has no page for (an older build) with index.html', async () => {
    for (const route of ['/about', '/signin', '/signup']) {
      const response = await h.client().get(route);
      expect(response.statusCode, route).toBe(200);
      expect(response.body, route).toBe(INDEX_HTML);
    }
  });

  it('answers unknown /api paths and missing assets with a JSON 404', async () => {
    for (const url of ['/api/nothing-here', '/api/users/nothing', '/assets/missing-999.js']) {
      const response = await h.client().get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ message: 'Not found.' });
    }
  });

  it('still serves the API', async () => {
    expect((await h.client().get(apiPaths.profile)).json()).toEqual({ message: 'Please sign in.' });
    expect((await h.client().post(apiPaths.prelogin, { username: 'someone' })).statusCode).toBe(200);
  });

  it('does not serve files outside the folder', async () => {
    const response = await h.client().get('/../package.json');
    expect(response.body).not.toContain('"name"');
  });
});

describe('compression', () => {
  const get = (url: string, acceptEncoding?: string) =>
    h.client().get(url, acceptEncoding === undefined ? {} : { headers: { 'accept-encoding': acceptEncoding } });

  it('sends the Brotli copy to a browser that accepts br, with Vary and the asset headers', async () => {
    // What Chromium sends: br is the smaller one, so it wins over gzip.
    const response = await get('/assets/index-abc123.js', 'gzip, deflate, br, zstd');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.rawPayload.length).toBeLessThan(APP_JS.length / 10);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(APP_JS);
  });

  it('sends the gzip copy to a browser that accepts only gzip', async () => {
    const response = await get('/assets/index-abc123.js', 'gzip');
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(response.rawPayload).toString()).toBe(APP_JS);
  });

  it('sends the file itself without Accept-Encoding, or when only identity is accepted', async () => {
    for (const accept of [undefined, 'identity']) {
      const response = await get('/assets/index-abc123.js', accept);
      expect(response.statusCode, String(accept)).toBe(200);
      expect(response.headers['content-encoding'], String(accept)).toBeUndefined();
      expect(response.headers.vary, String(accept)).toMatch(/accept-encoding/i);
      expect(response.body, String(accept)).toBe(APP_JS);
    }
  });

  it('compresses index.html too, for a client-side route', async () => {
    for (const url of ['/vault', '/profile']) {
      const response = await get(url, 'gzip, br');
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-encoding'], url).toBe('br');
      expect(response.headers['content-type'], url).toContain('text/html');
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(brotliDecompressSync(response.rawPayload).toString(), url).toBe(INDEX_HTML);
    }
  });

  it('sends a file that has no compressed copy as it is', async () => {
    const response = await get('/favicon.svg', 'br, gzip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toContain('<svg');
  });
});

describe('files at the root', () => {
  it('serves robots.txt as a text file, not the app shell', async () => {
    const response = await h.client().get('/robots.txt');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    expect(response.body).toContain('User-agent: *');
  });

  it('answers a missing file (a path with an extension) with a JSON 404, not the app shell', async () => {
    for (const url of ['/sitemap.xml', '/favicon.ico', '/apple-touch-icon.png']) {
      const response = await h.client().get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ message: 'Not found.' });
    }
  });
});

describe('without a web build', () => {
  it('serves the API only, answering other paths with a JSON 404', async () => {
    const page = await apiOnly.client().get('/vault');
    expect(page.statusCode).toBe(404);
    expect(page.json()).toEqual({ message: 'Not found.' });
    expect((await apiOnly.client().post(apiPaths.prelogin, { username: 'someone' })).statusCode).toBe(200);
  });
});
