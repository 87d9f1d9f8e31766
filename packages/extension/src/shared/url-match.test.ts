import fc from 'fast-check';
import { getDomain } from 'tldts';
import { describe, expect, it } from 'vitest';
import { addressMatches, MATCH_RULES, type MatchRule } from './url-match';

const label = fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/);
/** A registrable domain under a public suffix of the list (and .test, which the default rule covers). */
const domain = fc
  .tuple(label, fc.constantFrom('com', 'co.uk', 'test', 'org', 'github.io'))
  .map(([name, tld]) => `${name}.${tld}`)
  // Some short names are public suffixes themselves (us.com, de.com): not a registrable domain.
  .filter((host) => getDomain(host, { allowPrivateDomains: true }) === host);
const path = fc.array(label, { maxLength: 3 }).map((parts) => `/${parts.join('/')}`);
const WEB_RULES = MATCH_RULES.filter((rule) => rule !== 'regex' && rule !== 'never');

describe('addressMatches', () => {
  it('matches the same https address under every rule but never', () => {
    fc.assert(
      fc.property(domain, path, fc.constantFrom(...WEB_RULES), (host, at, rule) => {
        expect(addressMatches(`https://${host}${at}`, `https://${host}${at}`, rule)).toBe(true);
      }),
    );
  });

  it('never matches an http: page for an https: item, whatever the rule', () => {
    fc.assert(
      fc.property(domain, path, fc.constantFrom(...WEB_RULES, 'never' as MatchRule), (host, at, rule) => {
        expect(addressMatches(`https://${host}${at}`, `http://${host}${at}`, rule)).toBe(false);
      }),
    );
  });

  it('never matches a host that only starts with the item host (the prefix hole), whatever the rule', () => {
    fc.assert(
      fc.property(domain, domain, path, fc.constantFrom(...WEB_RULES), (host, evil, at, rule) => {
        fc.pre(host !== evil);
        const item = `https://${host}`;
        for (const page of [`https://${host}.${evil}${at}`, `https://${host}-${evil}${at}`, `https://${host}@${evil}${at}`]) {
          expect(addressMatches(item, page, rule)).toBe(false);
        }
      }),
    );
  });

  it('never matches another registrable domain, whatever the rule', () => {
    fc.assert(
      fc.property(domain, domain, label, path, fc.constantFrom(...WEB_RULES), (a, b, sub, at, rule) => {
        fc.pre(a !== b);
        expect(addressMatches(`https://${a}`, `https://${sub}.${b}${at}`, rule)).toBe(false);
      }),
    );
  });

  it('base domain matches subdomains both ways; host and starts-with do not', () => {
    fc.assert(
      fc.property(domain, label, (host, sub) => {
        expect(addressMatches(`https://${host}`, `https://${sub}.${host}/login`, 'base-domain')).toBe(true);
        expect(addressMatches(`https://${sub}.${host}`, `https://${host}/`, 'base-domain')).toBe(true);
        expect(addressMatches(`https://${host}`, `https://${sub}.${host}/login`, 'host')).toBe(false);
        expect(addressMatches(`https://${host}`, `https://${sub}.${host}/login`, 'starts-with')).toBe(false);
      }),
    );
  });

  it('starts-with needs the same origin and the item path as a prefix', () => {
    fc.assert(
      fc.property(domain, path, path, (host, at, more) => {
        expect(addressMatches(`https://${host}${at}`, `https://${host}${at}${more}`, 'starts-with')).toBe(true);
        expect(addressMatches(`https://${host}${at}`, `https://${host}:8443${at}${more}`, 'starts-with')).toBe(false);
      }),
    );
  });

  it('never matches under never, nor a page that is not http(s)', () => {
    fc.assert(
      fc.property(domain, fc.constantFrom(...MATCH_RULES), (host, rule) => {
        expect(addressMatches(`https://${host}`, `https://${host}`, 'never')).toBe(false);
        for (const page of [
          `ftp://${host}/`,
          `javascript:alert(1)//${host}`,
          `data:text/html,${host}`,
          'about:blank',
          'not a url',
        ]) {
          expect(addressMatches(`https://${host}`, page, rule)).toBe(false);
        }
      }),
    );
  });

  it('treats private suffixes as public: a.github.io and b.github.io are different sites', () => {
    expect(addressMatches('https://alice.github.io', 'https://bob.github.io/', 'base-domain')).toBe(false);
    expect(addressMatches('https://bank.co.uk', 'https://evil.co.uk/', 'base-domain')).toBe(false);
  });

  it('reads an address without a scheme as https and compares hosts as the URL parser does', () => {
    expect(addressMatches('bank.test', 'https://BANK.test./login', 'host')).toBe(true);
    expect(addressMatches('bank.test', 'http://bank.test/login', 'host')).toBe(false);
    expect(addressMatches('http://bank.test', 'https://bank.test/login', 'host')).toBe(true);
  });

  it('tests a regex against the whole address and refuses a pattern that does not compile', () => {
    expect(addressMatches('^https://bank\\.test/', 'https://bank.test/login', 'regex')).toBe(true);
    expect(addressMatches('^https://bank\\.test/', 'https://bank.test.evil.test/', 'regex')).toBe(false);
    expect(addressMatches('(', 'https://bank.test/', 'regex')).toBe(false);
    expect(addressMatches('x'.repeat(501), 'https://bank.test/', 'regex')).toBe(false);
  });

  it('exact ignores the fragment only', () => {
    expect(addressMatches('https://bank.test/login?a=1', 'https://bank.test/login?a=1#top', 'exact')).toBe(true);
    expect(addressMatches('https://bank.test/login?a=1', 'https://bank.test/login?a=2', 'exact')).toBe(false);
  });
});
