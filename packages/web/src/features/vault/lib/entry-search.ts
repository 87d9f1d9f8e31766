import { matchesQuery, type VaultEntry } from './vault-entry';

/** One typed query and its matches; each step's needle extends the one before it. */
interface SearchStep<T> {
  needle: string;
  matches: readonly T[];
}

/**
 * Search as you type over one list (kept in its order). A longer query can only match fewer
 * entries, so a key that extends the query filters the matches of the key before it, not the
 * whole vault, and a backspace gets back the matches already found for that prefix. When
 * nothing is filtered out the same array is returned, so the list sees no change at all.
 *
 * `needle` is normalised (normaliseQuery). The returned function caches the steps of the
 * query being typed; its answer depends only on `entries` and `needle`.
 */
export function createEntrySearch<T extends VaultEntry>(entries: readonly T[]): (needle: string) => readonly T[] {
  // The bottom step is the empty query, a prefix of every needle.
  const steps: [SearchStep<T>, ...SearchStep<T>[]] = [{ needle: '', matches: entries }];
  return (needle) => {
    let last = steps[steps.length - 1] ?? steps[0];
    while (steps.length > 1 && !needle.startsWith(last.needle)) {
      steps.pop();
      last = steps[steps.length - 1] ?? steps[0];
    }
    if (last.needle === needle) return last.matches;
    const narrowed = last.matches.filter((entry) => matchesQuery(entry, needle));
    const matches = narrowed.length === last.matches.length ? last.matches : narrowed;
    steps.push({ needle, matches });
    return matches;
  };
}
