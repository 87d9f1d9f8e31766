import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config/app-config';
import { HttpError } from '../../http/http-error';

/** The WebAuthn relying party of one ceremony: who the authenticator signs for. */
export interface RelyingParty {
  /** The RP ID: the host name of `origin`; a credential made for it works only there. */
  id: string;
  /** The origin the browser must report in clientDataJSON. */
  origin: string;
  name: string;
}

export const RELYING_PARTY_NAME = 'Lockit';

export const PASSKEYS_NEED_DOMAIN =
  'Passkeys need Lockit opened at a domain name, such as localhost or vault.example.com (see PUBLIC_ORIGIN).';
export const PASSKEYS_NEED_OWN_ORIGIN =
  'Passkeys need the request to come from the page Lockit was opened at (its Origin header was missing or did not match).';

/**
 * The relying party for this request. With PUBLIC_ORIGIN it is that origin, whatever the
 * request says. Without it, the request's own origin: its Origin header must equal the origin
 * the request was addressed to (the scheme Fastify derives, proxies only under TRUST_PROXY, and
 * the Host header) or APP_ORIGIN, so a request can never name a relying party of its choosing.
 * Browsers refuse WebAuthn on an IP address, so one gets a 400 that says how to fix it.
 *
 * Security invariant: the origin and RP ID given to verification come from the operator's
 * configuration or from this check, never from the authenticator's answer.
 */
export function relyingPartyFor(request: FastifyRequest, config: AppConfig): RelyingParty {
  const origin = config.publicOrigin !== undefined ? normalizeOrigin(config.publicOrigin) : requestOrigin(request, config);
  if (origin === undefined) throw new HttpError(400, PASSKEYS_NEED_OWN_ORIGIN);
  const hostname = new URL(origin).hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(hostname) !== 0) throw new HttpError(400, PASSKEYS_NEED_DOMAIN);
  return { id: hostname, origin, name: RELYING_PARTY_NAME };
}

function requestOrigin(request: FastifyRequest, config: AppConfig): string | undefined {
  const header = request.headers.origin;
  if (header === undefined) return undefined;
  const given = normalizeOrigin(header);
  if (given === undefined) return undefined;
  const own = normalizeOrigin(`${request.protocol}://${request.host}`);
  const app = config.appOrigin === undefined ? undefined : normalizeOrigin(config.appOrigin);
  return given === own || given === app ? given : undefined;
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
