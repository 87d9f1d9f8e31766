/**
 * Case folding for uniqueness and lookup: NFKC then lower case, so "Alice", "ALICE" and
 * full-width "Ａｌｉｃｅ" are one name. Display keeps what the user typed.
 */
export function foldName(value: string): string {
  return value.normalize('NFKC').toLowerCase();
}
