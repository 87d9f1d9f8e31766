import { foldForSearch, matchesWords, queryWords } from './search-text';

/** What a search reads of an entry: its folded search text (open-entries.ts searchTextOf). */
export interface Searchable {
  searchText: string;
}

/** One typed query and its matches. */
interface SearchStep<T> {
  query: string;
  words: string[];
  matches: readonly T[];
}

/**
 * Search as you type over one list, kept in its order: every word of the query (folded like
 * the entries' search texts: no case, no accents) must appear in the entry's name, user
 * name, web addresses, tags or folder name, as filterEntries (entry-filter.ts) matches.
 * A query that extends the one before can only match fewer entries, so a key filters the
 * matches of the key before it, not the whole vault; a backspace gets back the matches
 * already found for that prefix. When nothing is filtered out the same array comes back,
 * so the list sees no change at all.
 */
export function createWordSearch<T extends Searchable>(entries: readonly T[]): (query: string) => readonly T[] {
  const steps: [SearchStep<T>, ...SearchStep<T>[]] = [{ query: '', words: [], matches: entries }];
  return (raw) => {
    const query = foldForSearch(raw);
    let last = steps[steps.length - 1] ?? steps[0];
    while (steps.length > 1 && !query.startsWith(last.query)) {
      steps.pop();
      last = steps[steps.length - 1] ?? steps[0];
    }
    if (last.query === query) return last.matches;
    const words = queryWords(query);
    const narrowed = last.matches.filter((entry) => matchesWords(entry.searchText, words));
    const matches = narrowed.length === last.matches.length ? last.matches : narrowed;
    steps.push({ query, words, matches });
    return matches;
  };
}
