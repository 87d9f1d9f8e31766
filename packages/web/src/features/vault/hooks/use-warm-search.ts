import { useEffect } from 'react';
import { createWordSearch, type Searchable } from '@lockit/client-core';

/** A query's first letter: it reads every entry's search text, as a person's first key does. */
const WARM_QUERY = 'e';

/**
 * Runs one search over `entries` when the page is next idle, and drops its answer. The first
 * key typed after an unlock filters the whole list through code that has never run: at 10,000
 * entries that cold pass took 2-3 ms of the key's frame (its time from key to the matches in
 * the DOM fell from 7-16 ms to 6-9 ms once warmed), where a warm pass takes well under 1 ms.
 * Idle time pays for it instead, before a person can type. Browsers without
 * requestIdleCallback (Safari) skip it: the first key is then as before.
 */
export function useWarmSearch(entries: readonly Searchable[]): void {
  useEffect(() => {
    if (entries.length === 0 || typeof requestIdleCallback !== 'function') return;
    const idle = requestIdleCallback(() => createWordSearch(entries)(WARM_QUERY));
    return () => cancelIdleCallback(idle);
  }, [entries]);
}
