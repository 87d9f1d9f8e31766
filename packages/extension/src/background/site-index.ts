import type { OpenEntry } from '@lockit/client-core';
import { siteKey, type MatchRule } from '../shared/url-match';
import { addressesOf, entryMatches } from './fill-tab';

/**
 * The open vault's entries by the site of each web address they name, so that finding a page's
 * items costs one Public Suffix lookup and a short list instead of parsing every address of the
 * vault (about 50 ms at 10,000 items on a busy machine, for each fill and each popup opening).
 *
 * The index only narrows: every candidate is still checked with `entryMatches`, so what matches
 * is exactly what the rule says. Under `regex` a pattern names no site, so every entry that has
 * an address is a candidate.
 */
export class SiteIndex {
  readonly #bySite = new Map<string, OpenEntry[]>();
  readonly #withAddresses: OpenEntry[] = [];

  constructor(entries: readonly OpenEntry[]) {
    for (const entry of entries) {
      const keys = new Set<string>();
      for (const address of addressesOf(entry)) {
        const key = siteKey(address);
        if (key !== null) keys.add(key);
      }
      if (addressesOf(entry).length > 0) this.#withAddresses.push(entry);
      for (const key of keys) {
        const list = this.#bySite.get(key);
        if (list) list.push(entry);
        else this.#bySite.set(key, [entry]);
      }
    }
  }

  /** The entries whose addresses name the page at `pageUrl` under `rule`, in the vault's order. */
  matching(pageUrl: string, rule: MatchRule): OpenEntry[] {
    if (rule === 'never') return [];
    let candidates: readonly OpenEntry[];
    if (rule === 'regex') candidates = this.#withAddresses;
    else {
      const key = siteKey(pageUrl);
      candidates = key === null ? [] : (this.#bySite.get(key) ?? []);
    }
    return candidates.filter((entry) => entryMatches(entry, pageUrl, rule));
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
