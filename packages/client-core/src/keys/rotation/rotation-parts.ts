import { KEY_ROTATION_PART_MAX_BYTES, KEY_ROTATION_PART_MAX_ITEMS, type KeyRotationPart } from '@lockit/contract';
import type { ResealedUnit } from './reseal';

/** Room left in a part's body for its braces and key names. */
const ENVELOPE_BYTES = 256;

type PartKind = keyof KeyRotationPart;

/**
 * Cuts the re-encrypted vault into the parts the server stages: each of one kind, at most
 * KEY_ROTATION_PART_MAX_ITEMS items and KEY_ROTATION_PART_MAX_BYTES of JSON (every text is
 * ASCII: ciphertexts, ids and kinds, so characters are bytes). `items` of each part counts
 * what a person would call items: entries, folders, documents and files, not versions.
 */
export function rotationParts(resealed: readonly ResealedUnit[]): { part: KeyRotationPart; items: number }[] {
  const lists: { [K in PartKind]-?: NonNullable<KeyRotationPart[K]> } = {
    entries: [],
    versions: [],
    folders: [],
    documents: [],
    attachments: [],
  };
  for (const unit of resealed) {
    if (unit.type === 'entry') {
      lists.entries.push(unit.entry);
      lists.versions.push(...unit.versions);
    } else if (unit.type === 'folder') lists.folders.push(unit.folder);
    else if (unit.type === 'document') lists.documents.push(unit.document);
    else if (unit.type === 'attachment') lists.attachments.push(unit.attachment);
  }
  const parts: { part: KeyRotationPart; items: number }[] = [];
  for (const kind of ['entries', 'versions', 'folders', 'documents', 'attachments'] as const) {
    let current: unknown[] = [];
    let bytes = ENVELOPE_BYTES;
    const flush = () => {
      if (current.length === 0) return;
      parts.push({ part: { [kind]: current } as KeyRotationPart, items: kind === 'versions' ? 0 : current.length });
      current = [];
      bytes = ENVELOPE_BYTES;
    };
    for (const item of lists[kind]) {
      const size = JSON.stringify(item).length + 1;
      if (current.length === KEY_ROTATION_PART_MAX_ITEMS || bytes + size > KEY_ROTATION_PART_MAX_BYTES) flush();
      current.push(item);
      bytes += size;
    }
    flush();
  }
  return parts;
}
