import { ENTRY_PLAINTEXT_LIMITS, overviewDocumentSchema, parseEntryDocument } from '@lockit/contract';

/**
 * The overview JSON `overview` as version 2: with copies of the entry's name and user name,
 * so the list opens the overview alone (contract's entry-documents.ts). A version 2 overview
 * comes back as it is; so does one that does not parse, or that would pass the overview's
 * caps with the copies added: a re-encryption keeps what it cannot improve, and judges none
 * of it (the vault's opening does).
 */
export function listedOverview(overview: string, name: string, username: string): string {
  let parsed;
  try {
    parsed = parseEntryDocument(overviewDocumentSchema, overview, 'overview');
  } catch {
    return overview;
  }
  if (parsed.v === 2) return overview;
  const upgraded = JSON.stringify({ ...parsed, v: 2, name, username });
  if (upgraded.length > ENTRY_PLAINTEXT_LIMITS.overview) return overview;
  try {
    parseEntryDocument(overviewDocumentSchema, upgraded, 'overview');
    return upgraded;
  } catch {
    return overview;
  }
}
