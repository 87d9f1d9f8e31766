import { randomInt } from './random-int';
import type { PassphraseOptions } from './generator-settings';
import { EFF_WORDLIST_SIZE } from './wordlist';

/**
 * A passphrase of `options.words` words, each drawn uniformly (randomInt) from `wordlist`,
 * joined by the separator; capitalised on request; with "add a number", one digit drawn
 * uniformly is appended to one word drawn uniformly.
 */
export function generatePassphrase(options: PassphraseOptions, wordlist: readonly string[]): string {
  const words = Array.from({ length: options.words }, () => wordlist[randomInt(wordlist.length)]!);
  const shown = options.capitalise ? words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)) : words;
  if (options.includeNumber) {
    const at = randomInt(shown.length);
    shown[at] = `${shown[at]!}${randomInt(10)}`;
  }
  return shown.join(options.separator);
}

/**
 * words x log2(7776) (12.925 bits a word), plus log2(10) for the digit and log2(words) for
 * the word it is added to. Capitals and the separator are fixed choices: they add nothing.
 */
export function passphraseEntropyBits(options: PassphraseOptions, listSize = EFF_WORDLIST_SIZE): number {
  const base = options.words * Math.log2(listSize);
  return options.includeNumber ? base + Math.log2(10) + Math.log2(options.words) : base;
}
