import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Kysely, SqliteDialect } from 'kysely';
import SQLite from 'better-sqlite3';
import { apiPaths } from '@lockit/contract';
import { buildApp } from '../src/app';
import type { Database } from '../src/db/schema';
import { signedInUser } from './helpers/accounts';
import { testConfig, useTestApp } from './helpers/test-app';

const h = useTestApp();

function raw(method: 'POST' | 'PUT', url: string, payload: string, contentType = 'application/json') {
  return h.app.inject({ method, url, payload, headers: { 'content-type': contentType, 'x-lockit-client': 'web' } });
}

describe('request errors', () => {
  it('answers malformed JSON with 400', async () => {
    const response = await raw('POST', apiPaths.login, '{"username": "a",');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'The request body is not valid JSON.' });
  });

  it('refuses prototype poisoning as invalid JSON', async () => {
    const response = await raw('POST', apiPaths.prelogin, '{"username":"someone","__proto__":{"admin":true}}');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'The request body is not valid JSON.' });
  });

  it('answers a body over 256 KiB with 413', async () => {
    const response = await raw('POST', apiPaths.login, JSON.stringify({ username: 'x'.repeat(300 * 1024) }));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: 'The request body is too large (the limit is 256 KiB).' });
  });

  it('answers another content type with 415', async () => {
    const response = await raw('POST', apiPaths.login, 'username=a&password=b', 'application/x-www-form-urlencoded');
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ message: 'Send the request body as JSON (Content-Type: application/json).' });
  });

  it('answers a missing or non-object body with 400', async () => {
    for (const payload of ['[]', '"text"', '42', 'null', '']) {
      const response = await raw('POST', apiPaths.login, payload);
      expect(response.statusCode, payload).toBe(400);
      expect(response.json()).toEqual({ message: 'The request body must be a JSON object.' });
    }
  });

  it('names a field of the wrong type', async () => {
    const response = await h.client().post(apiPaths.login, { username: 42, password: 'x' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'username must be a string' });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const response = await h.client().request(method, '/api/nope');
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Not found.' });
    }
  });
});

describe('unexpected errors', () => {
  it('answer 500 with a generic message; the details go to the log only', async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    // A database without tables: every query fails in a way no route expects.
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    const app = await buildApp(
      { ...testConfig({ kind: 'sqlite', file: ':memory:' }, undefined), logLevel: 'error' },
      { db, logStream },
    );
    try {
      const response = await app.inject({
        method: 'POST',
        url: apiPaths.prelogin,
        payload: { username: 'someone' },
        headers: { 'x-lockit-client': 'web' },
      });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ message: 'Something went wrong on our side.' });
      expect(response.body).not.toMatch(/users|sqlite|stack|at /i);
      expect(lines.join('')).toContain('no such table: users');
    } finally {
      await app.close();
      await db.destroy();
    }
  });
});

describe('property: any JSON body gets a readable answer, never a 5xx', () => {
  const json = fc.jsonValue({ maxDepth: 3 });
  const objectish = fc.oneof(
    json,
    fc.record(
      {
        username: fc.oneof(fc.string(), fc.constantFrom('valid_name', 'ab', ''), json),
        email: fc.oneof(fc.emailAddress(), fc.string(), json),
        password: fc.oneof(fc.base64String(), fc.string({ minLength: 43, maxLength: 43 }), json),
        code: fc.oneof(fc.string({ minLength: 6, maxLength: 6 }), json),
        kdf: fc.oneof(
          json,
          fc.record({
            algorithm: fc.constant('argon2id'),
            memoryKiB: fc.integer(),
            iterations: fc.double(),
            parallelism: fc.integer(),
          }),
        ),
        serviceName: fc.oneof(fc.string(), json),
        id: fc.oneof(fc.uuid(), fc.string()),
        revision: fc.oneof(fc.integer(), fc.double(), json),
        name: fc.oneof(fc.string(), json),
      },
      { requiredKeys: [] },
    ),
  );

  it('on every public route', async () => {
    const routes = [apiPaths.createUser, apiPaths.sendCode, apiPaths.verifyCode, apiPaths.prelogin, apiPaths.login];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), objectish, async (url, body) => {
        const response = await raw('POST', url, JSON.stringify(body));
        expect(response.statusCode).toBeLessThan(500);
        expect(typeof response.json().message).toBe('string');
      }),
      { numRuns: 150 },
    );
  });

  it('on every protected route with a session', async () => {
    const { client } = await signedInUser(h);
    const calls: Array<['POST' | 'PUT', string]> = [
      ['PUT', apiPaths.updateUsername],
      ['PUT', apiPaths.changePassword],
      ['POST', apiPaths.addEntry],
      ['PUT', apiPaths.updateEntry('3f2b8c1e-7a4d-4f6b-9c2e-1a2b3c4d5e6f')],
      ['PUT', apiPaths.updateEntry('not-a-uuid')],
      ['POST', apiPaths.restoreEntry('3f2b8c1e-7a4d-4f6b-9c2e-1a2b3c4d5e6f')],
      ['POST', apiPaths.folders],
      ['PUT', apiPaths.folder('3f2b8c1e-7a4d-4f6b-9c2e-1a2b3c4d5e6f')],
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...calls), objectish, async ([method, url], body) => {
        const response = await client.request(method, url, { body: body as object });
        expect(response.statusCode).toBeLessThan(500);
        if (response.statusCode >= 400) expect(typeof response.json().message).toBe('string');
      }),
      { numRuns: 150 },
    );
    expect((await client.get(apiPaths.profile)).statusCode).toBe(200);
  });
});
