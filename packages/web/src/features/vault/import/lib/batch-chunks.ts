import { ENTRY_BATCH_MAX_ENTRIES, type AddEntryRequest } from '@lockit/contract';

/** Body bytes a call aims under: half the server's ENTRY_BATCH_MAX_BYTES, for the JSON around and a margin. */
export const CHUNK_TARGET_BYTES = 4 * 1024 * 1024;

/** The JSON size of one entry's body (ciphertexts are ASCII: characters are bytes). */
export function bodySize(entry: AddEntryRequest): number {
  let size = 64 + entry.id.length;
  for (const value of [
    entry.serviceName,
    entry.username,
    entry.password,
    entry.url,
    entry.notes,
    entry.overview,
    entry.details,
  ]) {
    size += value?.length ?? 0;
  }
  return size;
}

/**
 * Cuts sealed entries into calls the server takes: at most ENTRY_BATCH_MAX_ENTRIES each and
 * under `maxBytes` of body, in order; an entry is never split or dropped.
 */
export function chunkEntries(
  entries: readonly AddEntryRequest[],
  maxEntries: number = ENTRY_BATCH_MAX_ENTRIES,
  maxBytes: number = CHUNK_TARGET_BYTES,
): AddEntryRequest[][] {
  const chunks: AddEntryRequest[][] = [];
  let current: AddEntryRequest[] = [];
  let bytes = 0;
  for (const entry of entries) {
    const size = bodySize(entry);
    if (current.length > 0 && (current.length >= maxEntries || bytes + size > maxBytes)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(entry);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
