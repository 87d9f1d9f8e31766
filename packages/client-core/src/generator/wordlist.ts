/**
 * The EFF large wordlist (https://www.eff.org/dice, CC BY 3.0 US, see
 * eff-large-wordlist.LICENSE.md): 7,776 words, one per line as "11111\tabacus". The text is the
 * package's export `@lockit/client-core/eff-large-wordlist.txt`; each platform loads it its own
 * way (the web app as a chunk of its own, the command line's agent from disk) and parses it here.
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
