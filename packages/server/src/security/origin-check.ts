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
  app.addHook('onRequest', async (request) => {
    if (!STATE_CHANGING.has(request.method)) return;
    const origin = request.headers.origin;
    if (origin === undefined) {
      if (request.headers[CLIENT_HEADER] === CLIENT_HEADER_VALUE) return;
      throw new HttpError(403, ORIGIN_REFUSED);
    }
    const given = normalizeOrigin(origin);
    if (given !== undefined && (given === ownOrigin(request) || given === appOrigin)) return;
    throw new HttpError(403, ORIGIN_REFUSED);
  });
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
