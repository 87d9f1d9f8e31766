/**
 * The keys of an `in (…)` list, padded to the next power of two by repeating the first key.
 * Each length of list is its own SQL text, and each text costs one of PostgreSQL's bounded
 * prepared statements (create-database.ts) and a slot of SQLite's statement cache: padded,
 * lists of 1 to 512 keys take ten texts instead of up to 512. A repeated key changes no
 * `in` answer. `keys` must not be empty (`in ()` is no valid SQL).
 */
export function padInList(keys: readonly string[]): string[] {
  const first = keys[0];
  if (first === undefined) throw new Error('padInList needs at least one key');
  let size = 1;
  while (size < keys.length) size *= 2;
  const padded = [...keys];
  while (padded.length < size) padded.push(first);
  return padded;
}
