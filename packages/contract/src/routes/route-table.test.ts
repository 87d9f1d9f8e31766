import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildOpenApiDocument } from './openapi';
import type { RouteEntry } from './route-entry';
import { findRoute, routeTable } from './route-table';

/** The spec's fifteen calls, letter for letter: the table may add to them, never change them. */
const SPEC_CALLS = [
  ['POST', '/api/users/refresh-token', 'public'],
  ['POST', '/api/users/login', 'public'],
  ['POST', '/api/users/create', 'public'],
  ['POST', '/api/email/send-code', 'public'],
  ['POST', '/api/email/verify-code', 'public'],
  ['GET', '/api/user/profile', 'session'],
  ['POST', '/api/users/verify', 'session'],
  ['GET', '/api/passwords/show/user-passwords', 'session'],
  ['POST', '/api/passwords/add', 'session'],
  ['POST', '/api/users/logout', 'public'],
  ['PUT', '/api/users/update-username', 'session'],
  ['PUT', '/api/users/change-password', 'session'],
  ['DELETE', '/api/users/delete-account', 'session'],
  ['PUT', '/api/passwords/update-password/:id', 'session'],
  ['DELETE', '/api/passwords/delete/:id', 'session'],
] as const;

describe('the route table', () => {
  it("holds the spec's fifteen calls with their methods and paths unchanged", () => {
    expect(SPEC_CALLS).toHaveLength(15);
    for (const [method, path, access] of SPEC_CALLS) {
      expect(findRoute(method, path), `${method} ${path}`).toMatchObject({ method, path, access });
    }
  });

  it('names each route once and each method and path once', () => {
    const names = routeTable.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
    const keys = routeTable.map((entry) => `${entry.method} ${entry.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const name of names) expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('gives each path parameter a schema, and no more', () => {
    for (const entry of routeTable as readonly RouteEntry[]) {
      const inPath = [...entry.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]).sort();
      const schema = entry.params as z.ZodObject | undefined;
      expect(Object.keys(schema?.shape ?? {}).sort(), entry.name).toEqual(inPath);
    }
  });

  it('keeps every route under /api but the probes and metrics', () => {
    const outside = (routeTable as readonly RouteEntry[])
      .filter((entry) => !entry.path.startsWith('/api/'))
      .map((entry) => entry.path);
    expect(outside.sort()).toEqual(['/healthz', '/metrics', '/readyz']);
  });

  it('becomes an OpenAPI document with an operation per entry and the cookies as security', () => {
    const document = buildOpenApiDocument(routeTable, {
      title: 'Lockit',
      version: '0',
      sessionCookie: 'session',
      adminCookie: 'admin',
    }) as { paths: Record<string, Record<string, { operationId: string; security: unknown[] }>> };
    const update = document.paths['/api/passwords/update-password/{id}']!.put!;
    expect(update.operationId).toBe('update-entry');
    expect(update.security).toEqual([{ sessionCookie: [] }]);
    expect(document.paths['/api/admin/users']!.get!.security).toEqual([{ adminCookie: [] }]);
    expect(document.paths['/api/users/login']!.post!.security).toEqual([]);
    const operations = Object.values(document.paths).flatMap((methods) => Object.keys(methods));
    expect(operations).toHaveLength(routeTable.length);
  });
});
