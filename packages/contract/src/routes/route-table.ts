import { accountRoutes } from './account-routes';
import { adminRoutes } from './admin-routes';
import { attachmentRoutes } from './attachment-routes';
import { operationsRoutes } from './operations-routes';
import type { RouteEntry } from './route-entry';
import { securityRoutes } from './security-routes';
import { shareLinkRoutes } from './share-link-routes';
import { vaultRoutes } from './vault-routes';

/**
 * Every route the server registers, once. The server looks each route up here when it is
 * registered (a route without an entry stops the app from starting) and refuses malformed
 * input with these schemas before any handler runs; /api/openapi.json is built from it.
 */
export const routeTable = [
  ...accountRoutes,
  ...vaultRoutes,
  ...attachmentRoutes,
  ...shareLinkRoutes,
  ...securityRoutes,
  ...adminRoutes,
  ...operationsRoutes,
] as const satisfies readonly RouteEntry[];

/** An entry with its own schemas' types, so the server can hand a handler its input typed. */
export type RouteTableEntry = (typeof routeTable)[number];
export type RouteName = RouteTableEntry['name'];

export function routeKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}

const byKey = new Map<string, RouteEntry>(routeTable.map((entry) => [routeKey(entry.method, entry.path), entry]));

/** The entry of a route as Fastify registers it (method and path template), if any. */
export function findRoute(method: string, path: string): RouteEntry | undefined {
  return byKey.get(routeKey(method, path));
}
