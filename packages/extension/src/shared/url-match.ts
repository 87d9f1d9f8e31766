import { URL_MATCH_RULES, type UrlMatchRule } from '@lockit/contract';
import { getDomain } from 'tldts';

/**
 * How an item's web address is compared with a page's address (the rules of the field's
 * managers, without their prefix hole).
 *
 * - `base-domain`: the same registrable domain by the Public Suffix List, private section on
 *   (a.github.io and b.github.io differ); any port.
 * - `host`: the same host name and port.
 * - `starts-with`: the same origin, and the page's path and query start with the item's.
 *   Never a bare string prefix: https://bank.test must not match https://bank.test.evil.test.
 * - `exact`: the same address, fragment aside.
 * - `regex`: the item's address is a regular expression tested against the page's address.
 * - `never`: this address is never offered nor filled.
 */
export const MATCH_RULES = URL_MATCH_RULES;
export type MatchRule = UrlMatchRule;

/** The longest regular expression an item may carry: the matcher runs in the service worker. */
const MAX_PATTERN = 500;

/**
 * Whether the page at `pageUrl` is one the item's address `itemAddress` names, under `rule`.
 *
 * Security invariants (every rule):
 * - Only http: and https: pages match; never a page whose address does not parse.
 * - An https: item never matches an http: page: a network attacker who can serve the http:
 *   page must not get a secret the person saved for the encrypted site.
 * - A host is compared as the URL parser normalises it (lower case, IDNA), with the trailing
 *   dot of a fully qualified name dropped (DNS gives bank.test. and bank.test the same address),
 *   never as typed text.
 */
export function addressMatches(itemAddress: string, pageUrl: string, rule: MatchRule = 'base-domain'): boolean {
  const page = parseWebUrl(pageUrl);
  if (page === null || rule === 'never') return false;
  if (rule === 'regex') return regexMatches(itemAddress, page.href);
  const item = parseWebUrl(withScheme(itemAddress));
  if (item === null) return false;
  if (item.protocol === 'https:' && page.protocol !== 'https:') return false;
  switch (rule) {
    case 'base-domain':
      return sameBaseDomain(bareHost(item), bareHost(page));
    case 'host':
      return bareHost(item) === bareHost(page) && item.port === page.port;
    case 'starts-with':
      return item.origin === page.origin && `${page.pathname}${page.search}`.startsWith(`${item.pathname}${item.search}`);
    case 'exact':
      return withoutHash(item) === withoutHash(page);
  }
}

/**
 * The key under which an address is indexed (background/site-index.ts): the registrable domain
 * of its host, or the bare host when it has none (an IP address, localhost). For every rule but
 * `regex`, an item's address can match a page only when both have the same key, because each of
 * those rules implies the same host or the same registrable domain. Null when the address names
 * no web page (it then matches no page under those rules either).
 */
export function siteKey(address: string): string | null {
  const url = parseWebUrl(withScheme(address));
  if (url === null) return null;
  const host = bareHost(url);
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}

/** The origin an item address names (https: when it has no scheme), or null when it names none. */
export function originOfAddress(itemAddress: string): string | null {
  return parseWebUrl(withScheme(itemAddress))?.origin ?? null;
}

function parseWebUrl(text: string): URL | null {
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
}

/** "bank.test" as people type it means https://bank.test. */
function withScheme(address: string): string {
  const trimmed = address.trim();
  return /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
}

function bareHost(url: URL): string {
  return url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname;
}

function sameBaseDomain(a: string, b: string): boolean {
  if (a === b) return true;
  const options = { allowPrivateDomains: true } as const;
  const domainA = getDomain(a, options);
  // No registrable domain (an IP address, localhost, a bare public suffix): only the same host.
  return domainA !== null && domainA === getDomain(b, options);
}

function withoutHash(url: URL): string {
  return url.href.slice(0, url.href.length - url.hash.length);
}

function regexMatches(pattern: string, href: string): boolean {
  if (pattern.length === 0 || pattern.length > MAX_PATTERN) return false;
  try {
    return new RegExp(pattern, 'u').test(href);
  } catch {
    // A pattern that does not compile matches nothing.
    return false;
  }
}
