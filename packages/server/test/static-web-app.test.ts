import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { useTestApp } from './helpers/test-app';

const dist = mkdtempSync(path.join(tmpdir(), 'lockit-web-'));
mkdirSync(path.join(dist, 'assets'));
writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Lockit</title><div id="root"></div>');
writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("app")');
writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

afterAll(() => rmSync(dist, { recursive: true, force: true }));

const h = useTestApp({ config: { webDistDir: dist } });
const apiOnly = useTestApp({ config: { webDistDir: path.join(dist, 'missing') } });

describe('the built web app', () => {
  it('serves index.html at / with no-cache and the security headers', async () => {
    const response = await h.client().get('/');
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
      expect(response.body).toContain('<div id="root">');
      expect(response.headers['cache-control']).toBe('no-cache');
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

describe('without a web build', () => {
  it('serves the API only, answering other paths with a JSON 404', async () => {
    const page = await apiOnly.client().get('/vault');
    expect(page.statusCode).toBe(404);
    expect(page.json()).toEqual({ message: 'Not found.' });
    expect((await apiOnly.client().post(apiPaths.prelogin, { username: 'someone' })).statusCode).toBe(200);
  });
});
