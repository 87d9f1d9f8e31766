import type { EntryVersionWire } from '@lockit/contract';
import { storedFieldSet } from '@lockit/crypto';
import type { HealthItemInput } from './compute-health';
import { oldFromTimes } from './health-analysis';

type Version = NonNullable<HealthItemInput['history']>[number];

/** Histories fetched at once: a few, so the report never floods the server. */
const CONCURRENCY = 4;

/**
 * Adds the password history to the items whose age the times leave open (created over a year
 * ago, written since): only for those is it fetched, still encrypted, one request each.
 * A history that cannot be fetched is left out; the worker then goes by the creation time.
 */
export async function withHistoryWhereNeeded(
  items: HealthItemInput[],
  now: number,
  fetchHistory: (id: string) => Promise<readonly EntryVersionWire[]>,
  signal?: AbortSignal,
): Promise<HealthItemInput[]> {
  const open = items.filter((item) => oldFromTimes(item.createdAt, item.updatedAt, now) === undefined);
  let next = 0;
  const histories = new Map<string, Version[]>();
  const worker = async () => {
    while (next < open.length) {
      signal?.throwIfAborted();
      const item = open[next++]!;
      try {
        const versions = await fetchHistory(item.id);
        histories.set(
          item.id,
          versions.map((version) => ({
            password: version.password,
            fieldSet: fieldSetOf(version),
            savedAt: version.savedAt,
            replacedAt: version.replacedAt,
          })),
        );
      } catch {
        // Unknown age: judged by the creation time instead.
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, open.length) }, worker));
  return histories.size === 0 ? items : items.map((item) => ({ ...item, history: histories.get(item.id) }));
}

function fieldSetOf(version: EntryVersionWire) {
  try {
    return storedFieldSet(version);
  } catch {
    return undefined;
  }
}
