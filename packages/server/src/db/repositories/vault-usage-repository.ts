import { sql } from 'kysely';
import type { Db, Executor } from '../schema';

export interface VaultUsage {
  /** Entries, Trash included. */
  items: number;
  /** Characters of ciphertext (ASCII, so bytes) of the entries and of their history. */
  bytes: number;
}

const entryBytes = sql<number>`coalesce(sum(
  length(service_name) + length(username) + length(password)
  + coalesce(length(url), 0) + coalesce(length(notes), 0)
  + coalesce(length(overview), 0) + coalesce(length(details), 0)), 0)`;

/**
 * What one account's vault takes, for the per-account caps. Sums over the user's rows on
 * each capped write: a scan by the user index, cheap next to the write's own work at the
 * caps' sizes (decision 0036). Counts are cast: PostgreSQL answers bigint sums as text.
 */
export function createVaultUsageRepository(db: Db) {
  return {
    async usage(userId: string, ex: Executor = db): Promise<VaultUsage> {
      const entries = await ex
        .selectFrom('entries')
        .select([sql<number>`count(*)`.as('items'), entryBytes.as('bytes')])
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      const history = await ex
        .selectFrom('entry_history')
        .select(entryBytes.as('bytes'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return { items: Number(entries.items), bytes: Number(entries.bytes) + Number(history.bytes) };
    },

    /** The same for every account with entries or history (the admin's user list): two grouped scans. */
    async usageByUser(ex: Executor = db): Promise<Map<string, VaultUsage>> {
      const entries = await ex
        .selectFrom('entries')
        .select(['user_id', sql<number>`count(*)`.as('items'), entryBytes.as('bytes')])
        .groupBy('user_id')
        .execute();
      const history = await ex
        .selectFrom('entry_history')
        .select(['user_id', entryBytes.as('bytes')])
        .groupBy('user_id')
        .execute();
      const usage = new Map<string, VaultUsage>();
      for (const row of entries) usage.set(row.user_id, { items: Number(row.items), bytes: Number(row.bytes) });
      for (const row of history) {
        const known = usage.get(row.user_id) ?? { items: 0, bytes: 0 };
        usage.set(row.user_id, { items: known.items, bytes: known.bytes + Number(row.bytes) });
      }
      return usage;
    },
  };
}

export type VaultUsageRepository = ReturnType<typeof createVaultUsageRepository>;
