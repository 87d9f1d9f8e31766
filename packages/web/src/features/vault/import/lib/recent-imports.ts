import { fromBase64Url, toBase64Url } from '@lockit/crypto';
import { z } from 'zod';

/**
 * The imports this browser made, for "Undo import" later (decision 0037). Kept in
 * localStorage per account: the batch id (the server knows it already), how many items,
 * the format's name and the date, and the ids of the items it created. No item data, nothing
 * secret. The server cannot list imports (it sees no tags, and keeps no list of batches), and
 * the import tag alone would need every item opened to find a batch id the entries do not
 * carry. The ids are kept here, not asked of the server, because an undo changes the vault's
 * integrity state (decision 0053): the browser must name what leaves the vault itself, or a
 * server could have it vouch for removing items that were never part of the import.
 */
/** A UUID's 16 bytes in base64url: 22 characters instead of 36. */
const PACKED_ID_LENGTH = 22;
/**
 * Ids kept across all records (about 660 KB of localStorage at most): older imports beyond it
 * lose their ids, and with them the undo from this list, before the newest ones do.
 */
export const MAX_KEPT_IDS = 30_000;

export const recentImportSchema = z.object({
  batchId: z.uuid(),
  count: z.number().int().min(0),
  source: z.string().max(100),
  tag: z.string().max(100),
  /** ISO time of the import. */
  at: z.string().max(40),
  /** The created items' ids, 22 base64url characters each (packIds); absent in older records. */
  ids: z
    .string()
    .max(PACKED_ID_LENGTH * MAX_KEPT_IDS)
    .regex(/^(?:[A-Za-z0-9_-]{22})*$/)
    .optional(),
});
export type RecentImport = z.infer<typeof recentImportSchema>;

const MAX_KEPT = 10;

/** Packs UUIDs (any case, with dashes) into one compact string. */
export function packIds(ids: readonly string[]): string {
  return ids
    .map((id) => {
      const hex = id.replaceAll('-', '');
      const bytes = Uint8Array.from({ length: 16 }, (_, i) => Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16));
      return toBase64Url(bytes);
    })
    .join('');
}

/** The UUIDs of a packed string, lower case with dashes. */
export function unpackIds(packed: string): string[] {
  const ids: string[] = [];
  for (let at = 0; at < packed.length; at += PACKED_ID_LENGTH) {
    const bytes = fromBase64Url(packed.slice(at, at + PACKED_ID_LENGTH));
    const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
    ids.push(`${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`);
  }
  return ids;
}

/** The list with ids dropped from the oldest records until at most MAX_KEPT_IDS remain. */
function capIds(list: RecentImport[]): RecentImport[] {
  let kept = 0;
  return list.map((record) => {
    const count = (record.ids?.length ?? 0) / PACKED_ID_LENGTH;
    if (kept + count <= MAX_KEPT_IDS) {
      kept += count;
      return record;
    }
    const { ids: _dropped, ...rest } = record;
    return rest;
  });
}
const keyOf = (account: string) => `lockit.recent-imports.${account.toLowerCase()}`;

export function readRecentImports(account: string, storage: Storage = localStorage): RecentImport[] {
  try {
    const parsed = z.array(recentImportSchema).safeParse(JSON.parse(storage.getItem(keyOf(account)) ?? '[]'));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

function write(account: string, list: RecentImport[], storage: Storage): void {
  try {
    storage.setItem(keyOf(account), JSON.stringify(capIds(list.slice(0, MAX_KEPT))));
  } catch {
    // Storage full or refused: the import stands; only its later undo link is lost.
  }
}

/** Newest first, at most MAX_KEPT. */
export function rememberImport(account: string, entry: RecentImport, storage: Storage = localStorage): RecentImport[] {
  const list = [entry, ...readRecentImports(account, storage).filter((held) => held.batchId !== entry.batchId)];
  write(account, list, storage);
  return capIds(list.slice(0, MAX_KEPT));
}

export function forgetImport(account: string, batchId: string, storage: Storage = localStorage): RecentImport[] {
  const list = readRecentImports(account, storage).filter((held) => held.batchId !== batchId);
  write(account, list, storage);
  return list;
}
