import type { OpenEntry } from '@lockit/client-core';
import { siteKey, type MatchRule } from '../shared/url-match';
import { addressesOf, entryMatches } from './fill-tab';

/**
 * The open vault's entries by the site of each web address they name, so that finding a page's
 * items costs one Public Suffix lookup and a short list instead of parsing every address of the
 * vault (about 50 ms at 10,000 items on a busy machine, for each fill and each popup opening).
 *
 * The index only narrows: every candidate is still checked with `entryMatches`, so what matches
 * is exactly what the rules say. A regular expression names no site: an entry with an address
 * whose own rule is `regex` is a candidate for every page, and with `regex` or `never` as the
 * default rule (addresses without their own rule follow it) every entry with an address is.
 */
export class SiteIndex {
  readonly #bySite = new Map<string, OpenEntry[]>();
  readonly #withAddresses: OpenEntry[] = [];
  /** Entries with an address whose own rule is a regular expression. */
  readonly #withPatterns = new Set<OpenEntry>();

  constructor(entries: readonly OpenEntry[]) {
    for (const entry of entries) {
      const keys = new Set<string>();
      for (const address of addressesOf(entry)) {
        const own = entry.urlRules?.[address];
        if (own === 'regex') this.#withPatterns.add(entry);
        const key = siteKey(address);
        if (key !== null && own !== 'never') keys.add(key);
      }
      if (addressesOf(entry).length > 0) this.#withAddresses.push(entry);
      for (const key of keys) {
        const list = this.#bySite.get(key);
        if (list) list.push(entry);
        else this.#bySite.set(key, [entry]);
      }
    }
  }

  /**
   * The entries whose addresses name the page at `pageUrl` (each under its own rule, else under
   * `defaultRule`), in the vault's order.
   */
  matching(pageUrl: string, defaultRule: MatchRule): OpenEntry[] {
    let candidates: readonly OpenEntry[];
    if (defaultRule === 'regex' || defaultRule === 'never') candidates = this.#withAddresses;
    else {
      const key = siteKey(pageUrl);
      const bySite = key === null ? [] : (this.#bySite.get(key) ?? []);
      const ofSite = new Set(bySite);
      candidates =
        this.#withPatterns.size === 0
          ? bySite
          : this.#withAddresses.filter((entry) => this.#withPatterns.has(entry) || ofSite.has(entry));
    }
    return candidates.filter((entry) => entryMatches(entry, pageUrl, defaultRule));
  }
}

const built = new WeakMap<readonly OpenEntry[], SiteIndex>();

/** The index of one list of entries, made on first use and kept as long as that list is. */
export function siteIndexOf(entries: readonly OpenEntry[]): SiteIndex {
  let index = built.get(entries);
  if (!index) {
    index = new SiteIndex(entries);
    built.set(entries, index);
  }
  return index;
}
