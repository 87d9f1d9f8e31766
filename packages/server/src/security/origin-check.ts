import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '@lockit/contract';
import { HttpError } from '../http/http-error';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const ORIGIN_REFUSED = 'Request refused: it did not come from the Lockit app.';

/**
 * CSRF defence in depth (cookies are already SameSite=Strict): a state-changing request must
 * come from our own origin or APP_ORIGIN, or, when the browser sent no Origin, carry the
 * app's custom header, which a cross-site form or simple request cannot set.
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
  const given = normalizeOrigin(origin);
  return given !== undefined && (given === ownOrigin(request) || given === appOrigin);
}

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
