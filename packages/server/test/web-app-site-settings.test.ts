import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_SITE_SETTINGS,
  footerCreditHtml,
  parseSiteSettings,
  siteSettingsMetaTag,
  socialLinksHtml,
} from '@lockit/contract/site-settings';
import { PRERENDERED_PAGES } from '@lockit/contract/paths';
import { acceptedEncoding } from '../src/web/site-pages';
import { useTestApp } from './helpers/test-app';

/**
 * The web app's credit and social links as runtime settings (decision 0082): the server writes
 * them into the HTML pages it sends, and sends the build's scripts unchanged.
 */
const page = (what: string) =>
  `<!doctype html><html><head><title>${what}</title></head><body><div id="root"><ul data-site="social-links">${socialLinksHtml(DEFAULT_SITE_SETTINGS)}</ul><p>Designed and built by <span data-site="footer-credit">${footerCreditHtml(DEFAULT_SITE_SETTINGS)}</span>.</p></div></body></html>`;
const SCRIPT = 'console.log("the build’s own bytes");\n';

const dist = mkdtempSync(path.join(tmpdir(), 'lockit-web-site-'));
mkdirSync(path.join(dist, 'pages'));
mkdirSync(path.join(dist, 'assets'));
writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><head></head><body><div id="root"></div></body></html>');
for (const [route, file] of Object.entries(PRERENDERED_PAGES)) writeFileSync(path.join(dist, file), page(route));
writeFileSync(path.join(dist, 'assets/index-abc.js'), SCRIPT);
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const ADA = parseSiteSettings({
  LOCKIT_AUTHOR_NAME: 'Ada <Lovelace>',
  LOCKIT_AUTHOR_URL: 'https://ada.example.org/',
  LOCKIT_SOCIAL_LINKS: 'GitHub=https://github.com/ada',
});

describe('a server with a credit and social links configured', () => {
  const h = useTestApp({ config: { webDistDir: dist, site: ADA } });

  it('writes them into every prerendered page and the shell, in place of the defaults', async () => {
    for (const route of [...Object.keys(PRERENDERED_PAGES), '/vault']) {
      const response = await h.client().get(route);
      expect(response.statusCode, route).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=UTF-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body, route).toContain(siteSettingsMetaTag(ADA));
      expect(response.body, route).not.toContain('the Lockit contributors');
    }
    const home = (await h.client().get('/home')).body;
    expect(home).toContain(`<span data-site="footer-credit">${footerCreditHtml(ADA)}</span>`);
    expect(home).toContain('Ada &#60;Lovelace&#62;</a>');
    expect(home).toContain(`<ul data-site="social-links">${socialLinksHtml(ADA)}</ul>`);
  });

  it('sends the Brotli or gzip copy the browser accepts, and a 304 for its ETag', async () => {
    const plain = (await h.client().get('/about')).body;
    const br = await h.client().get('/about', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain);
    const gzip = await h.client().get('/about', { headers: { 'accept-encoding': 'gzip' } });
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain);
    const again = await h.client().get('/about', { headers: { 'if-none-match': String(br.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('sends no HTML file by its own name (it would lack the settings), and the scripts as built', async () => {
    for (const url of ['/index.html', '/pages/home.html', '/pages/home.html.br']) {
      expect((await h.client().get(url)).statusCode, url).toBe(404);
    }
    expect((await h.client().get('/assets/index-abc.js')).body).toBe(SCRIPT);
  });
});

describe('a server without them', () => {
  const h = useTestApp({ config: { webDistDir: dist } });

  it('sends the build’s pages as they are', async () => {
    expect((await h.client().get('/home')).body).toBe(page('/home'));
    expect((await h.client().get('/index.html')).statusCode).toBe(200);
  });
});

describe('acceptedEncoding', () => {
  it('prefers Brotli, then gzip, and honours q=0', () => {
    expect(acceptedEncoding('gzip, deflate, br')).toBe('br');
    expect(acceptedEncoding('br;q=0, gzip')).toBe('gzip');
    expect(acceptedEncoding('identity')).toBeNull();
    expect(acceptedEncoding(undefined)).toBeNull();
  });
});
