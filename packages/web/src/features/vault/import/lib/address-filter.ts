import type { EntryFilter } from '../../lib/entry-filter';

/**
 * The filter the vault opens with: `/vault?tag=<tag>` (the import summary's "Show the
 * imported items") opens on that tag; anything else on All.
 */
export function filterFromAddress(search: string): EntryFilter {
  const tag = new URLSearchParams(search).get('tag');
  return tag !== null && tag.trim() !== '' ? { kind: 'tag', tag } : { kind: 'all' };
}
