import { z } from 'zod';

/**
 * The imports this browser made, for "Undo import" later (decision 0037). Kept in
 * localStorage per account: the batch id (the server knows it already), how many items,
 * the format's name and the date. No item data, nothing secret. The server cannot list
 * imports (it sees no tags, and keeps no list of batches), and the import tag alone would
 * need every item opened to find a batch id the entries do not carry.
 */
export const recentImportSchema = z.object({
  batchId: z.uuid(),
  count: z.number().int().min(0),
  source: z.string().max(100),
  tag: z.string().max(100),
  /** ISO time of the import. */
  at: z.string().max(40),
});
export type RecentImport = z.infer<typeof recentImportSchema>;

const MAX_KEPT = 10;
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
    storage.setItem(keyOf(account), JSON.stringify(list.slice(0, MAX_KEPT)));
  } catch {
    // Storage full or refused: the import stands; only its later undo link is lost.
  }
}

/** Newest first, at most MAX_KEPT. */
export function rememberImport(account: string, entry: RecentImport, storage: Storage = localStorage): RecentImport[] {
  const list = [entry, ...readRecentImports(account, storage).filter((held) => held.batchId !== entry.batchId)];
  write(account, list, storage);
  return list.slice(0, MAX_KEPT);
}

export function forgetImport(account: string, batchId: string, storage: Storage = localStorage): RecentImport[] {
  const list = readRecentImports(account, storage).filter((held) => held.batchId !== batchId);
  write(account, list, storage);
  return list;
}
