import { randomUUID } from 'node:crypto';
import argon2 from 'argon2';
import Fastify from 'fastify';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { adminPaths, apiPaths } from '@lockit/contract';
import { OPENAPI_PATH, routeTable } from '@lockit/contract/routes';
import { installRouteTableValidation } from '../src/http/route-table-validation';
import { signedInUser } from './helpers/accounts';
import { snapshotDatabase } from './helpers/db-snapshot';
import { parseExposition, valueOf } from './helpers/prometheus-text';
import { useTestApp } from './helpers/test-app';

const ADMIN_TOKEN = 'an-admin-token-for-the-route-table';
// Cheap parameters: the admin API is registered only with a token hash, and the table holds it.
const TOKEN_HASH = await argon2.hash(ADMIN_TOKEN, {
  type: argon2.argon2id,
  memoryCost: 1024,
  timeCost: 1,
  parallelism: 1,
});

const h = useTestApp({ config: { adminTokenHash: TOKEN_HASH } });

async function refusedAtEdge(route: string): Promise<number> {
  const response = await h.app.inject({ method: 'GET', url: '/metrics' });
  return valueOf(parseExposition(response.body), 'lockit_http_input_refused_total', { route }) ?? 0;
}

describe('the route table and the registered routes', () => {
  it('every entry of the table is a route of the app (with the admin API on)', () => {
    const missing = routeTable.filter((entry) => !h.app.hasRoute({ method: entry.method, url: entry.path }));
    expect(missing.map((entry) => `${entry.method} ${entry.path}`)).toEqual([]);
  });

  it('an /api route without an entry stops the app from being built', async () => {
    const app = Fastify();
    installRouteTableValidation(app, () => {});
    expect(() => app.get('/api/not-in-the-table', async () => ({}))).toThrow(/not in the route table/);
    // Outside /api (the web app's pages and files) a route needs no entry.
    expect(() => app.get('/some-page', async () => ({}))).not.toThrow();
    await app.close();
  });

  it('a route whose guard differs from its entry stops the app from being built', async () => {
    const app = Fastify();
    installRouteTableValidation(app, () => {});
    // The profile is a session route: registered public, it would be open to anyone.
    expect(() => app.get(apiPaths.profile, { config: { public: true } }, async () => ({}))).toThrow(/is public but/);
    await app.close();
  });
});

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document of every table entry, to anyone', async () => {
    const response = await h.client().get(OPENAPI_PATH);
    expect(response.statusCode).toBe(200);
    const document = response.json<{
      openapi: string;
      paths: Record<string, Record<string, { operationId: string }>>;
      components: { securitySchemes: Record<string, { in: string; name: string }> };
    }>();
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods).map((op) => op.operationId));
    expect(operations.sort()).toEqual(routeTable.map((entry) => entry.name).sort());
    expect(document.components.securitySchemes).toMatchObject({
      sessionCookie: { in: 'cookie', name: 'lockit_access' },
      adminCookie: { in: 'cookie', name: 'lockit_admin' },
    });
  });
});

describe('malformed input is refused at the edge, before the handler', () => {
  it('five routes: 400 with a readable message, nothing written, counted as refused before the handler', async () => {
    const { client } = await signedInUser(h);
    const cases = [
      { route: 'login', method: 'POST', url: apiPaths.login, body: { username: 'someone' }, message: 'password is required' },
      {
        route: 'update-username',
        method: 'PUT',
        url: apiPaths.updateUsername,
        body: { username: 42 },
        message: 'username must be a string',
      },
      {
        route: 'add-entry',
        method: 'POST',
        url: apiPaths.addEntry,
        body: { id: 'not-a-uuid', serviceName: 'x', username: 'y', password: 'z' },
        message: 'id must be a UUID',
      },
      {
        route: 'put-account-document',
        method: 'PUT',
        url: apiPaths.accountDocument('generator-settings'),
        body: { ciphertext: 'x', revision: 'first' },
        message: /^ciphertext /,
      },
      {
        route: 'put-account-document',
        method: 'PUT',
        url: apiPaths.accountDocument('no-such-kind'),
        body: { ciphertext: 'x', revision: 0 },
        message: /^kind must be one of /,
      },
      {
        route: 'update-folder',
        method: 'PUT',
        url: apiPaths.folder(randomUUID()),
        body: { revision: 1 },
        message: 'name is required',
      },
      {
        route: 'update-folder',
        method: 'PUT',
        url: apiPaths.folder('not-a-folder-id'),
        body: { name: 'x', revision: 1 },
        message: 'id must be a UUID',
      },
      {
        route: 'webauthn-rename',
        method: 'PATCH',
        url: apiPaths.webauthnCredential(randomUUID()),
        body: ['a', 'list'],
        message: 'The request body must be a JSON object.',
      },
    ] as const;
    for (const { route, method, url, body, message } of cases) {
      const before = await snapshotDatabase(h.db);
      const counted = await refusedAtEdge(route);
      const response = await client.request(method, url, { body });
      expect(response.statusCode, `${method} ${url}`).toBe(400);
      const answer = response.json<{ message: string }>();
      expect(Object.keys(answer), url).toEqual(['message']);
      if (typeof message === 'string') expect(answer.message, url).toBe(message);
      else expect(answer.message, url).toMatch(message);
      expect(await refusedAtEdge(route), `${route} counted`).toBe(counted + 1);
      expect(await snapshotDatabase(h.db), `${route} wrote nothing`).toEqual(before);
    }
  });

  it('every route with a body refuses one that is no JSON object at the edge, whoever calls it', async () => {
    const { client } = await signedInUser(h);
    // One client with both a session and an admin session: each route's own guard lets it in.
    expect((await client.post(adminPaths.signIn, { token: ADMIN_TOKEN })).statusCode).toBe(200);
    // A valid value for each path parameter, so that only the body is wrong.
    const valid: Record<string, string> = {
      id: randomUUID(),
      entryId: randomUUID(),
      batchId: randomUUID(),
      kind: 'generator-settings',
    };
    const withBody = routeTable.filter((entry) => 'body' in entry);
    expect(withBody.length).toBeGreaterThan(30);
    for (const entry of withBody) {
      const url = entry.path.replace(/:([A-Za-z]+)/g, (_, name: string) => valid[name]!);
      const counted = await refusedAtEdge(entry.name);
      const response = await client.request(entry.method, url, { body: ['not', 'an', 'object'] });
      expect(response.statusCode, entry.name).toBe(400);
      expect(response.json(), entry.name).toEqual({ message: 'The request body must be a JSON object.' });
      expect(await refusedAtEdge(entry.name), entry.name).toBe(counted + 1);
    }
  });

  it('a well-formed request passes the edge and is not counted', async () => {
    const { client } = await signedInUser(h);
    const counted = await refusedAtEdge('update-username');
    const response = await client.put(apiPaths.updateUsername, { username: `renamed_${randomUUID().slice(0, 8)}` });
    expect(response.statusCode).toBe(200);
    expect(await refusedAtEdge('update-username')).toBe(counted);
  });
});
