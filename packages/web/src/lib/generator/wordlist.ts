import { parseWordlist } from '@lockit/client-core';

export { EFF_WORDLIST_SIZE, parseWordlist } from '@lockit/client-core';

let loading: Promise<string[]> | null = null;

/**
 * The EFF wordlist's words (the client core's file and parser), fetched once per page load as a
 * chunk of its own (109 kB, 43 kB of gzip), only when a passphrase is asked for. A failed load
 * may be tried again.
 */
export function loadWordlist(): Promise<string[]> {
  loading ??= import('@lockit/client-core/eff-large-wordlist.txt?raw').then(
    (module) => parseWordlist(module.default),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}
