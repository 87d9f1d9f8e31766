import { ApiClient, type Transport } from '@lockit/client-core';
import { apiBaseUrl } from '@/config/env';
import { maybeSignedIn } from './session-hint';

export { retryAfterSeconds } from '@lockit/client-core';
export type { HttpMethod } from '@lockit/client-core';

/** A page's fetch: cookies always travel, since the session lives in them. */
const pageTransport: Transport = ({ method, url, headers, body }) =>
  fetch(url, { method, headers, credentials: 'include', ...(body !== undefined ? { body } : {}) });

/** False only when the browser knows it has no network; true where it cannot tell. */
export function browserOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/**
 * The app's one API client (the client core's): the route table is loaded on demand, with the
 * first call that names a route, so the first paint carries no schemas (see contract.ts).
 */
export const api = new ApiClient({
  baseUrl: apiBaseUrl,
  transport: pageTransport,
  routes: async () => (await import('@lockit/contract/routes')).routeTable,
  maybeSignedIn,
  knownOffline: browserOffline,
});
