/**
 * Host names the server answers for (the Host check, security/host-check.ts). A name is kept
 * lower case without a trailing dot; `port` undefined matches any port.
 */
export interface AllowedHost {
  name: string;
  port: number | undefined;
}

/** What this machine calls itself: always answered, on any port (development, probes, the CLI). */
export const LOOPBACK_HOSTS: readonly AllowedHost[] = [
  { name: 'localhost', port: undefined },
  { name: '127.0.0.1', port: undefined },
  { name: '[::1]', port: undefined },
];

/** One DNS label: letters, digits, inner hyphens (compose service names are a single label). */
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DNS_NAME = new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})*$`);
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/;
const IPV6_IN_BRACKETS = /^\[[0-9a-f:.]+\]$/;
const HOST_AND_PORT = /^(\[[^\]]*\]|[^:]*)(?::(\d{1,5}))?$/;

/**
 * `host[:port]` as a Host header carries it (or as ALLOWED_HOSTS lists it), or undefined
 * when it is not one: a name, an IPv4 address or a bracketed IPv6 address, port 1..65535.
 */
export function parseHost(value: string): AllowedHost | undefined {
  const match = HOST_AND_PORT.exec(value.trim().toLowerCase());
  if (!match) return undefined;
  const name = match[1]!.replace(/\.$/, '');
  const port = match[2] === undefined ? undefined : Number(match[2]);
  if (port !== undefined && (port < 1 || port > 65535)) return undefined;
  const valid = IPV4.test(name) || IPV6_IN_BRACKETS.test(name) || DNS_NAME.test(name);
  return valid ? { name, port } : undefined;
}

/**
 * ALLOWED_HOSTS: comma-separated `host[:port]`. Returns the hosts, or an error naming each
 * entry that is not one and what to write instead.
 */
export function parseAllowedHosts(text: string): { hosts: AllowedHost[] } | { error: string } {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const bad = entries.filter((entry) => parseHost(entry) === undefined);
  if (bad.length > 0) {
    return {
      error: `has ${bad.map((entry) => `"${entry}"`).join(', ')}, which is not a host: give host names with an optional port, separated by commas, such as vault.example.com,lockit:3000 (no scheme, no path, no wildcard)`,
    };
  }
  return { hosts: entries.map((entry) => parseHost(entry)!) };
}

/** The Host check's list: loopback names, PUBLIC_ORIGIN's host (any port), then ALLOWED_HOSTS. */
export function hostAllowList(publicOrigin: string | undefined, allowedHosts: readonly AllowedHost[]): AllowedHost[] {
  const list = [...LOOPBACK_HOSTS];
  if (publicOrigin) list.push({ name: new URL(publicOrigin).hostname.replace(/\.$/, ''), port: undefined });
  return [...list, ...allowedHosts];
}

/** Whether a Host header names one of the allowed hosts (a missing or malformed one never does). */
export function isAllowedHost(hostHeader: string | undefined, allowList: readonly AllowedHost[]): boolean {
  if (hostHeader === undefined) return false;
  const host = parseHost(hostHeader);
  if (!host) return false;
  return allowList.some((allowed) => allowed.name === host.name && (allowed.port === undefined || allowed.port === host.port));
}

/** HOST values that only this machine can reach: no other host name can arrive there by DNS. */
export function isLoopbackListenAddress(host: string): boolean {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}
