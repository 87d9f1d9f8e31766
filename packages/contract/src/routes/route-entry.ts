import type { z } from 'zod';

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route: anyone, a signed-in account (the session cookies), or the operator
 * (the admin cookie of an admin session; the admin API exists only with ADMIN_TOKEN).
 */
export type RouteAccess = 'public' | 'session' | 'admin';

/**
 * One route of the server: what it accepts and what it answers. The server refuses a request
 * whose params, query or body fail these schemas before the handler runs, and the OpenAPI
 * document is built from them, so both say the same thing.
 */
export interface RouteEntry {
  /** Unique, kebab-case: the OpenAPI operationId. */
  name: string;
  method: RouteMethod;
  /** In Fastify's syntax (`/api/passwords/update-password/:id`), exactly as the server registers it. */
  path: string;
  access: RouteAccess;
  summary: string;
  params?: z.ZodType;
  query?: z.ZodType;
  /** The JSON body; a route without one ignores any body sent. */
  body?: z.ZodType;
  /**
   * When the body's limits depend on the path (an account document's cap is its kind's): the
   * schema for the parsed params. `body` then describes every case, for the document.
   */
  bodyFor?: (params: never) => z.ZodType;
  /** The answer per status, where the contract has a schema for it. */
  responses?: Readonly<Record<number, z.ZodType>>;
}

/** Typed identity: keeps each table's entries checked against RouteEntry. */
export function routes<const T extends readonly RouteEntry[]>(entries: T): T {
  return entries;
}
