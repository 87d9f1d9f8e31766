import { ENTRY_BATCH_MAX_ENTRIES, type AddEntryRequest } from '@lockit/contract';

/**
 * Body bytes a call aims under: well below the server's ENTRY_BATCH_MAX_BYTES (8 MiB), because
 * the page encodes and hands over each body in one task: a 4 MiB body held the main thread for
 * 50-200 ms on 2 cores, a 1 MiB one about a quarter of that.
 */
export const CHUNK_TARGET_BYTES = 1024 * 1024;

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
