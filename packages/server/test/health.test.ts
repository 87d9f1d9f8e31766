import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { DEFAULT_MIGRATION_TABLE } from 'kysely';
import { freePort } from '@lockit/test-support';
import { buildApp } from '../src/app';
import type { AppConfig, DatabaseConfig } from '../src/config/app-config';
import { createDatabase } from '../src/db/create-database';
import { migrations } from '../src/db/migrations/index';
import type { Db } from '../src/db/schema';
import { testConfig, useTestApp } from './helpers/test-app';
import { createTestDatabase, PG_URL, TEST_DB_KIND, type TestDatabase } from './helpers/test-database';

const REDIS_URL = process.env.LOCKIT_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const INDEX_HTML = '<!doctype html><title>Lockit</title><div id="root"></div>';

/** A web build, so that the app shell's fallback is there to (wrongly) answer the probes. */
const dist = mkdtempSync(path.join(tmpdir(), 'lockit-web-'));
writeFileSync(path.join(dist, 'index.html'), INDEX_HTML);
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const h = useTestApp({ config: { webDistDir: dist } });

/** A probe as a kubelet or curl sends it: no cookie, no Origin, no app header. */
function probe(app: FastifyInstance, url: string, method: 'GET' | 'HEAD' = 'GET') {
  return app.inject({ method, url, remoteAddress: '10.0.0.9' });
}

function expectSecurityHeaders(response: LightMyRequestResponse) {
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['x-frame-options']).toBe('DENY');
  expect(response.headers['content-security-policy']).toContain("default-src 'self'");
  expect(response.headers['cache-control']).toBe('no-store');
}

/** An app on `db` (which the test owns), with the web build and optional config changes. */
async function appOn(database: TestDatabase['config'], db: Db, config: Partial<AppConfig> = {}) {
  const app = await buildApp(testConfig(database, undefined, { config: { webDistDir: dist, ...config } }), { db });
  await app.ready();
  return app;
}

describe('GET /healthz', () => {
  it('answers 200 {"message":"OK"} to a bare probe, with the security headers and no-store', async () => {
    const response = await probe(h.app, '/healthz');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ message: 'OK' });
    expectSecurityHeaders(response);
    expect((await probe(h.app, '/healthz', 'HEAD')).statusCode).toBe(200);
  });
});

describe('GET /readyz', () => {
  it('answers 200 when the database answers and every migration is applied (no Redis check without REDIS_URL)', async () => {
    const response = await probe(h.app, '/readyz');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message: 'Ready',
      data: { checks: { database: { ok: true }, migrations: { ok: true } } },
    });
    expectSecurityHeaders(response);
  });

  it('is never answered by the web app shell, nor is /metrics', async () => {
    expect((await probe(h.app, '/some/client/route')).body).toBe(INDEX_HTML);
    for (const url of ['/healthz', '/readyz', '/metrics']) {
      const response = await probe(h.app, url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).not.toContain('<!doctype html>');
    }
  });

  it('answers 503 naming the database when it is gone, while /healthz still answers 200', async () => {
    const database = await createTestDatabase();
    const app = await appOn(database.config, database.db);
    try {
      expect((await probe(app, '/readyz')).statusCode).toBe(200);
      await database.db.destroy();
      const response = await probe(app, '/readyz');
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        message: 'Not ready: database, migrations failed.',
        data: {
          checks: {
            database: { ok: false, message: 'The database could not run a query.' },
            migrations: { ok: false, message: 'Not checked: the database is not answering.' },
          },
        },
      });
      expectSecurityHeaders(response);
      expect((await probe(app, '/healthz')).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.drop();
    }
  });

  it.runIf(TEST_DB_KIND === 'postgres')(
    'answers 503 within about a second when the database stops answering (PostgreSQL behind a frozen proxy)',
    async () => {
      const database = await createTestDatabase();
      const proxy = await freezableProxy(new URL(PG_URL).port || '5432');
      const secret = 'pw-that-must-not-leak';
      const url = new URL(PG_URL);
      url.port = String(proxy.port);
      url.password = secret;
      const { searchPath } = database.config as Extract<DatabaseConfig, { kind: 'postgres' }>;
      const config: DatabaseConfig = { kind: 'postgres', url: url.href, ...(searchPath ? { searchPath } : {}) };
      const db = createDatabase(config);
      const app = await appOn(config, db);
      try {
        expect((await probe(app, '/readyz')).statusCode).toBe(200);
        proxy.freeze();
        const started = performance.now();
        const response = await probe(app, '/readyz');
        const elapsed = performance.now() - started;
        expect(response.statusCode).toBe(503);
        expect(response.json().data.checks.database).toEqual({
          ok: false,
          message: 'The database did not answer within 1 second.',
        });
        expect(response.body).not.toContain(secret);
        expect(response.body).not.toContain(String(proxy.port));
        expect(elapsed).toBeGreaterThanOrEqual(990);
        expect(elapsed).toBeLessThan(3_000);
        expect((await probe(app, '/healthz')).statusCode).toBe(200);
      } finally {
        proxy.close();
        await app.close();
        await db.destroy();
        await database.drop();
      }
    },
  );

  it('answers 503 naming a migration that is not applied', async () => {
    const database = await createTestDatabase();
    const last = Object.keys(migrations).at(-1)!;
    // As if an older version had migrated this database: its bookkeeping lacks the newest one.
    await database.db
      .deleteFrom(DEFAULT_MIGRATION_TABLE as never)
      .where('name' as never, '=', last as never)
      .execute();
    const app = await appOn(database.config, database.db);
    try {
      const response = await probe(app, '/readyz');
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        message: 'Not ready: migrations failed.',
        data: {
          checks: {
            database: { ok: true },
            migrations: { ok: false, message: `Migrations not applied: ${last}. Restart the server to apply them.` },
          },
        },
      });
    } finally {
      await app.close();
      await database.drop();
    }
  });

  it('answers 503 naming Redis when REDIS_URL is set and nothing listens there, without its password', async () => {
    const database = await createTestDatabase();
    const password = 'redis-pw-that-must-not-leak';
    const closedPort = await freePort();
    const app = await appOn(database.config, database.db, { redisUrl: `redis://:${password}@127.0.0.1:${closedPort}` });
    try {
      const response = await probe(app, '/readyz');
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        message: 'Not ready: redis failed.',
        data: {
          checks: {
            database: { ok: true },
            migrations: { ok: true },
            redis: { ok: false, message: 'Redis is unreachable (rate limits fall back to this process).' },
          },
        },
      });
      expect(response.body).not.toContain(password);
      expect(response.body).not.toContain(String(closedPort));
    } finally {
      await app.close();
      await database.drop();
    }
  });

  it('answers 200 with Redis checked when REDIS_URL is set and Redis answers PING', async () => {
    const database = await createTestDatabase();
    const app = await appOn(database.config, database.db, { redisUrl: REDIS_URL });
    try {
      const response = await probe(app, '/readyz');
      expect(response.statusCode).toBe(200);
      expect(response.json().data.checks).toEqual({ database: { ok: true }, migrations: { ok: true }, redis: { ok: true } });
    } finally {
      await app.close();
      await database.drop();
    }
  });
});

/** A TCP proxy to 127.0.0.1:`port` that, once frozen, forwards nothing in either direction. */
async function freezableProxy(port: string): Promise<{ port: number; freeze(): void; close(): void }> {
  const sockets = new Set<Socket>();
  let frozen = false;
  const server: Server = createServer((client) => {
    const upstream = connect(Number(port), '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.on('data', (chunk) => void (frozen || upstream.write(chunk)));
    upstream.on('data', (chunk) => void (frozen || client.write(chunk)));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    freeze() {
      frozen = true;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}
