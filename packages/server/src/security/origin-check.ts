import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '@lockit/contract';
import { HttpError } from '../http/http-error';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const ORIGIN_REFUSED = 'Request refused: it did not come from the Lockit app.';

/**
 * CSRF defence in depth (cookies are already SameSite=Strict): a state-changing request must
 * come from our own origin or APP_ORIGIN, or, when the browser sent no Origin, carry the
 * app's custom header, which a cross-site form or simple request cannot set. A browser
 * extension's own pages and worker (the Lockit extension) send their extension origin and the
 * header: no web page can send an extension origin, and an extension able to reach this
 * server already holds its cookies (decision 0069).
 */
export function installOriginCheck(app: FastifyInstance, appOrigin: string | undefined): void {
  // A callback hook: reads (most requests) pass without a promise of their own.
  app.addHook('onRequest', (request, _reply, done) => {
    done(isAllowed(request, appOrigin) ? undefined : new HttpError(403, ORIGIN_REFUSED));
  });
}

function isAllowed(request: FastifyRequest, appOrigin: string | undefined): boolean {
  if (!STATE_CHANGING.has(request.method)) return true;
  const origin = request.headers.origin;
  if (origin === undefined) return request.headers[CLIENT_HEADER] === CLIENT_HEADER_VALUE;
  if (EXTENSION_ORIGIN.test(origin)) return request.headers[CLIENT_HEADER] === CLIENT_HEADER_VALUE;
  const given = normalizeOrigin(origin);
  return given !== undefined && (given === ownOrigin(request) || given === appOrigin);
}

/** The origins browsers give extensions (Chromium, Firefox, Safari): a page can never send one. */
const EXTENSION_ORIGIN = /^(chrome-extension|moz-extension|safari-web-extension):\/\/[a-z0-9-]{1,64}$/;

/** The origin this request was addressed to (behind a proxy only when TRUST_PROXY is on). */
function ownOrigin(request: FastifyRequest): string | undefined {
  return normalizeOrigin(`${request.protocol}://${request.host}`);
}

/** Lower case, default port dropped; undefined for "null" or anything that is not an origin. */
function normalizeOrigin(value: string): string | undefined {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}
