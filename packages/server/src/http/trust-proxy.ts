import { isIP } from 'node:net';

/**
 * Which proxies may tell this server the client's address (X-Forwarded-For) and scheme:
 * none (`false`), the nearest `n` hops, or the peers whose address is in a list. Never "every
 * sender": then any client picks its own address for every rate limit.
 */
export type TrustProxy = false | number | readonly string[];

/** proxy-addr's names for well-known ranges, accepted as Fastify passes them on. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const MAX_HOPS = 100;

export const TRUST_PROXY_TRUE_REFUSED =
  'must say which proxies to trust, not true (that would believe any client’s X-Forwarded-For): ' +
  'give the number of proxies in front of the server (e.g. 1) or their addresses or CIDRs (e.g. 10.0.0.2 or 10.0.0.0/8)';

const EXPECTED =
  'must be false, a number of proxy hops (e.g. 1), or a comma-separated list of proxy addresses or CIDRs (e.g. 10.0.0.2, 10.0.0.0/8)';

/** A list entry proxy-addr accepts: an IPv4/IPv6 address, one with a /prefix, or a range name. */
function isTrustedEntry(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const slash = entry.indexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const version = isIP(address);
  if (version === 0) return false;
  if (slash === -1) return true;
  const prefix = entry.slice(slash + 1);
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** TRUST_PROXY's text as a `TrustProxy`, or the message saying what is wrong with it. */
export function parseTrustProxy(text: string): { value: TrustProxy } | { error: string } {
  const value = text.trim().toLowerCase();
  if (['', 'false', 'no', 'off', '0'].includes(value)) return { value: false };
  if (['true', 'yes', 'on'].includes(value)) return { error: TRUST_PROXY_TRUE_REFUSED };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops <= MAX_HOPS ? { value: hops } : { error: `must be at most ${MAX_HOPS} hops (${EXPECTED})` };
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.find((entry) => !isTrustedEntry(entry));
  if (bad !== undefined) return { error: `${EXPECTED}; "${bad || '(empty)'}" is neither` };
  return { value: entries };
}

/**
 * Fastify's `trustProxy` for it. A hop count becomes a function: Fastify 5 takes a bare number
 * as "trust no peer" for the scheme and host, while a proxy in front (which is what a hop count
 * says) must be believed for them; the client address is then the entry `n` hops back, and
 * whatever a client wrote further left in X-Forwarded-For is ignored.
 */
export function fastifyTrustProxy(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (trust === false) return false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return [...trust];
}

/** Whether a proxy is in front at all (the per-address connection cap is then off). */
export function behindProxy(trust: TrustProxy): boolean {
  return trust !== false;
}
