import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { buildApp } from '../src/app';
import type { AppConfig } from '../src/config/app-config';
import { HOST_REFUSED } from '../src/security/host-check';
import { signedInUser } from './helpers/accounts';
import { testConfig, useTestApp } from './helpers/test-app';
import { createTestDatabase } from './helpers/test-database';

const INDEX_HTML = '<!doctype html><title>Lockit</title><div id="root"></div>';
const dist = mkdtempSync(path.join(tmpdir(), 'lockit-host-check-'));
writeFileSync(path.join(dist, 'index.html'), INDEX_HTML);
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const h = useTestApp({
  config: {
    webDistDir: dist,
    publicOrigin: 'https://vault.example.com',
    allowedHosts: [
      { name: 'lockit', port: 3000 },
      { name: '10.0.0.5', port: undefined },
    ],
    trustProxy: 1,
  },
});

const REFUSED = { message: HOST_REFUSED };
const REBOUND = 'attacker.example';

describe('the Host check (DNS rebinding)', () => {
  it('answers 421 and no vault data to a foreign Host on an API route, even with a session', async () => {
    const { client } = await signedInUser(h);
    const response = await client.get(apiPaths.profile, { headers: { host: REBOUND } });
    expect(response.statusCode).toBe(421);
    expect(response.json()).toEqual(REFUSED);
    expect(response.headers['set-cookie']).toBeUndefined();
    // The same browser on our own name is still signed in: nothing was changed.
    expect((await client.get(apiPaths.profile)).statusCode).toBe(200);
  });

  it('answers 421 to a foreign Host on a static page and on a path that does not exist', async () => {
    for (const url of ['/', '/vault', '/index.html', '/api/no-such-route']) {
      const response = await h.client().get(url, { headers: { host: `${REBOUND}:3000` } });
      expect(response.statusCode, url).toBe(421);
      expect(response.json(), url).toEqual(REFUSED);
      expect(response.body, url).not.toContain('Lockit</title>');
    }
  });

  it('refuses a state-changing request from a foreign Host before the route runs', async () => {
    const response = await h
      .client()
      .post(apiPaths.login, { username: 'someone', password: 'A'.repeat(43) }, { headers: { host: REBOUND } });
    expect(response.statusCode).toBe(421);
  });

  it('answers for loopback names on any port, PUBLIC_ORIGIN and ALLOWED_HOSTS', async () => {
    for (const host of [
      'localhost',
      'localhost:5173',
      '127.0.0.1:3000',
      '[::1]:8080',
      'vault.example.com',
      'VAULT.example.com.:443',
      'lockit:3000',
      '10.0.0.5:1234',
    ]) {
      const response = await h.client().get('/', { headers: { host } });
      expect(response.statusCode, host).toBe(200);
    }
  });

  it('holds an ALLOWED_HOSTS port to that port', async () => {
    expect((await h.client().get('/', { headers: { host: 'lockit:3001' } })).statusCode).toBe(421);
    expect((await h.client().get('/', { headers: { host: 'lockit' } })).statusCode).toBe(421);
  });

  it('refuses names that only look like ours and malformed Hosts', async () => {
    for (const host of ['vault.example.com.attacker.example', 'localhost.attacker.example', '127.0.0.2', 'local host']) {
      const response = await h.client().get('/', { headers: { host } });
      expect(response.statusCode, JSON.stringify(host)).toBe(421);
    }
  });

  it('checks the Host itself under TRUST_PROXY, not X-Forwarded-Host', async () => {
    const forged = await h.client().get('/', { headers: { host: REBOUND, 'x-forwarded-host': 'vault.example.com' } });
    expect(forged.statusCode).toBe(421);
    const proxied = await h.client().get('/', { headers: { host: 'vault.example.com', 'x-forwarded-host': REBOUND } });
    expect(proxied.statusCode).toBe(200);
  });

  it('lets health checks and the metrics scraper in by any Host', async () => {
    for (const url of ['/healthz', '/readyz', '/metrics', '/healthz?probe=1']) {
      const response = await h.client().get(url, { headers: { host: 'lockit-app-1:3000' } });
      expect(response.statusCode, url).toBe(200);
    }
  });
});

describe('the start-up line about the Host check', () => {
  async function startLog(config: Partial<AppConfig>): Promise<string> {
    const database = await createTestDatabase();
    let log = '';
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        log += chunk.toString();
        callback();
      },
    });
    const app = await buildApp(testConfig(database.config, undefined, { config: { logLevel: 'info', ...config } }), {
      db: database.db,
      logStream,
    });
    await app.close();
    await database.drop();
    return log;
  }

  it('warns once when HOST is not loopback and no public name is configured', async () => {
    const log = await startLog({ host: '0.0.0.0' });
    expect(log.match(/neither PUBLIC_ORIGIN nor ALLOWED_HOSTS is set/g)).toHaveLength(1);
  });

  it('stays quiet on loopback, or with PUBLIC_ORIGIN or ALLOWED_HOSTS set', async () => {
    for (const config of [
      { host: '127.0.0.1' },
      { host: '0.0.0.0', publicOrigin: 'https://vault.example.com' },
      { host: '0.0.0.0', allowedHosts: [{ name: 'lockit', port: undefined }] },
    ]) {
      expect(await startLog(config), JSON.stringify(config)).not.toContain('PUBLIC_ORIGIN');
    }
  });
});
