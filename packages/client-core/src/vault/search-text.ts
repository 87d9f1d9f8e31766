/**
 * Letters that lose nothing a searcher types when spelled in plain Latin, and that NFKD does
 * not decompose (they are letters of their own, not a base letter plus an accent).
 */
const LETTER_SPELLINGS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  ø: 'o',
  œ: 'oe',
  ł: 'l',
  đ: 'd',
  ı: 'i',
};
const SPELLED_LETTERS = new RegExp(`[${Object.keys(LETTER_SPELLINGS).join('')}]`, 'g');

/**
 * Only the diacritic blocks (Latin, Greek, Cyrillic accents), not every combining mark: the
 * vowel signs of Indic scripts and the kana voicing marks are part of the letter, and
 * stripping them would make different words match. (One class per block: a class joining
 * them would put an unassigned end point right before a mark, which reads as one character.)
 */
const DIACRITICS = /[\u0300-\u036f]|[\u1ab0-\u1aff]|[\u1dc0-\u1dff]|[\u20d0-\u20ff]|[\ufe20-\ufe2f]/g;
const ASCII = /^[\t\n\r\x20-\x7e]*$/;

/**
 * The form text is searched in: compatibility-decomposed (NFKD, so "ﬁ" is "fi" and a
 * full-width "Ａ" is "a"), accents removed, lower case, a few letters spelled out (ß as ss,
 * æ as ae, ø as o, œ as oe, ł as l, đ as d, ı as i), whitespace collapsed to single spaces
 * and trimmed. Folding both sides makes "emoji" find "Émoji Bank" and "strasse" find "Straße".
 */
export function foldForSearch(text: string): string {
  return foldLetters(text).replace(/\s+/g, ' ').trim();
}

/**
 * foldForSearch without the whitespace step, for text that is only searched in: the words
 * of a query hold no whitespace, so they match the same either way, and a vault of 10,000
 * entries is folded on the first key press.
 */
export function foldForMatching(text: string): string {
  return foldLetters(text);
}

function foldLetters(text: string): string {
  // Most names and addresses are printable ASCII; they skip the Unicode work.
  if (ASCII.test(text)) return text.toLowerCase();
  return text
    .normalize('NFKD')
    .replace(DIACRITICS, '')
    .toLowerCase()
    .replace(SPELLED_LETTERS, (letter) => LETTER_SPELLINGS[letter] ?? letter);
}

/** The folded words of a query, each of which must appear; none for a blank query. */
export function queryWords(query: string): string[] {
  const folded = foldForSearch(query);
  return folded === '' ? [] : folded.split(' ');
}

/** Whether every word of `query` appears in `foldedHaystack` (folded by foldForSearch or foldForMatching). */
export function matchesWords(foldedHaystack: string, words: readonly string[]): boolean {
  return words.every((word) => foldedHaystack.includes(word));
}

/**
 * Whether every word of `query` appears somewhere in `haystack`, in any order, ignoring
 * case, accents and spacing. A blank query matches everything.
 */
export function matchesQuery(haystack: string, query: string): boolean {
  return matchesWords(foldForSearch(haystack), queryWords(query));
}

/**
 * The key names sort by, compared code unit by code unit: folded like search (no case, no
 * accents), each run of digits as its length then its digits (leading zeros dropped), so
 * "Item 2" comes before "Item 10" and digits before letters. It orders Latin-script names as
 * Intl.Collator (base sensitivity, numeric) does, at a string comparison's cost: sorting
 * 10,000 names with a collator took over 100 ms, a main-thread task of its own after unlock.
 */
export function nameSortKey(name: string): string {
  const folded = foldForSearch(name);
  let key = '';
  let copied = 0;
  for (let i = 0; i < folded.length; i++) {
    if (!isDigit(folded.charCodeAt(i))) continue;
    let end = i + 1;
    while (end < folded.length && isDigit(folded.charCodeAt(end))) end++;
    // Leading zeros dropped (one zero kept for "0" itself), then the length as one character.
    let first = i;
    while (first < end - 1 && folded.charCodeAt(first) === 0x30) first++;
    key += folded.slice(copied, i) + String.fromCharCode(0x30 + Math.min(end - first, 0x4f)) + folded.slice(first, end);
    copied = end;
    i = end - 1;
  }
  return copied === 0 ? folded : key + folded.slice(copied);
}

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
