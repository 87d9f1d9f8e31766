/**
 * The EFF large wordlist (https://www.eff.org/dice, CC BY 3.0 US, see
 * eff-large-wordlist.LICENSE.md): 7,776 words, one per line as "11111\tabacus". It is loaded
 * only when a passphrase is asked for, as a chunk of its own (109 kB, 43 kB of gzip).
 */
export const EFF_WORDLIST_SIZE = 7776;

/** The words of the list's text, checked: exactly 7,776 distinct lines of five dice and a word. */
export function parseWordlist(text: string): string[] {
  const lines = text.split('\n').filter((line) => line !== '');
  const words = lines.map((line) => {
    const match = /^[1-6]{5}\t([a-z-]+)$/.exec(line);
    if (!match) throw new Error('The wordlist has a malformed line.');
    return match[1]!;
  });
  if (words.length !== EFF_WORDLIST_SIZE || new Set(words).size !== EFF_WORDLIST_SIZE) {
    throw new Error(`The wordlist must have ${EFF_WORDLIST_SIZE} distinct words.`);
  }
  return words;
}

let loading: Promise<string[]> | null = null;

/** The list's words, fetched once per page load. A failed load may be tried again. */
export function loadWordlist(): Promise<string[]> {
  loading ??= import('./eff-large-wordlist.txt?raw').then(
    (module) => parseWordlist(module.default),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}
