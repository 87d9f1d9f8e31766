import type { FastifyInstance, preValidationAsyncHookHandler, RouteOptions } from 'fastify';
import { findRoute, type RouteEntry } from '@lockit/contract/routes';
import { parseBody, parseInput } from './parse-body';
import { keepRouteInput } from './route-input';

/**
 * Paths every route of which must be in the contract's route table. The web app's pages and
 * files (web/static-web-app.ts) are no API and stay out; the probes beside /api are in the
 * table and get checked when they are found there.
 */
const API_PREFIX = '/api/';

/**
 * Looks every route up in the contract's route table as it is registered, and gives it a
 * preValidation that refuses malformed params, query and body with the table's schemas:
 * the same 400 and `{ message }` as parseBody, before the handler runs. An /api route missing
 * from the table, or whose access differs from its entry, throws here, so the app does not
 * start and the table cannot drift from the routes. The parsed input is kept for the handler
 * (route-input.ts). Install before the routes are registered.
 */
export function installRouteTableValidation(app: FastifyInstance, onRefused: (route: string) => void): void {
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat().map((method) => method.toUpperCase());
    // Fastify adds a HEAD route beside each GET: it takes the GET's input and its entry.
    const lookup = methods.length === 1 && methods[0] === 'HEAD' ? ['GET'] : methods.filter((m) => m !== 'HEAD');
    const entries = lookup.map((method) => findRoute(method, route.url));
    const underApi = route.url.startsWith(API_PREFIX);
    if (entries.some((entry) => entry === undefined)) {
      if (!underApi) return;
      throw new Error(`${methods.join(',')} ${route.url} is not in the route table (packages/contract/src/routes).`);
    }
    if (entries.length !== 1) throw new Error(`${route.url}: one method per API route, each with its own table entry.`);
    const entry = entries[0]!;
    checkAccess(route, entry);
    route.preValidation = [validateInput(entry, onRefused), ...[route.preValidation ?? []].flat()];
  });
}

/** The guards the route's options ask for must be the ones its entry promises. */
function checkAccess(route: RouteOptions, entry: RouteEntry): void {
  const isPublic = (route.config as { public?: boolean } | undefined)?.public === true;
  const hasOwnGuard = [route.onRequest ?? []].flat().length > 0;
  const actual = !isPublic ? 'session' : hasOwnGuard ? 'admin' : 'public';
  if (actual !== entry.access) {
    throw new Error(`${entry.method} ${entry.path} is ${actual} but its route table entry says ${entry.access}.`);
  }
}

/** In the order the handlers always checked them: the path, then the query, then the body. */
function validateInput(entry: RouteEntry, onRefused: (route: string) => void): preValidationAsyncHookHandler {
  return async (request) => {
    try {
      const params: unknown = entry.params ? parseInput(entry.params, request.params) : undefined;
      const query: unknown = entry.query ? parseInput(entry.query, request.query ?? {}) : undefined;
      const bodySchema = entry.bodyFor ? entry.bodyFor(params as never) : entry.body;
      const body: unknown = bodySchema ? parseBody(bodySchema, request.body) : undefined;
      keepRouteInput(request, { name: entry.name, params, query, body });
    } catch (error) {
      // Counted by the table's name, a fixed set: nothing of the request becomes a label.
      onRefused(entry.name);
      throw error;
    }
  };
}
