/** The most keys one query asks for; a bigger batch is split. */
export const LOOKUP_BATCH_MAX = 16;
/**
 * Reads under way at once. Lookups asked for while both are out wait for one to return and
 * then go together: under load, batches grow instead of queries queueing for connections.
 */
export const LOOKUP_READS_IN_FLIGHT = 2;

/**
 * Coalesces lookups by key into few queries: keys asked for while the event loop handles one
 * round of I/O (or while LOOKUP_READS_IN_FLIGHT reads are out) are read together, after that
 * round (setImmediate), in queries of up to LOOKUP_BATCH_MAX distinct keys. On PostgreSQL
 * this saves most round trips; on SQLite, most of Kysely's per-query work.
 *
 * Freshness: a lookup is answered only by a query sent after it was asked for, never by an
 * earlier or in-flight one, so it sees every write committed before it was asked (a logout
 * on another process included). Each caller gets the row read for its own key, or undefined.
 */
export function createBatchedLookup<Row>(
  read: (keys: readonly string[]) => Promise<readonly Row[]>,
  keyOf: (row: Row) => string,
): (key: string) => Promise<Row | undefined> {
  let waiting = new Map<string, Array<Waiter<Row>>>();
  let scheduled = false;
  let inFlight = 0;

  const schedule = () => {
    if (scheduled || inFlight >= LOOKUP_READS_IN_FLIGHT || waiting.size === 0) return;
    scheduled = true;
    setImmediate(flush);
  };

  const readPart = (part: string[], batch: Map<string, Array<Waiter<Row>>>) => {
    inFlight += 1;
    read(part)
      .then(
        (rows) => {
          const found = new Map<string, Row>();
          for (const row of rows) found.set(keyOf(row), row);
          for (const key of part) for (const waiter of batch.get(key) ?? []) waiter.resolve(found.get(key));
        },
        (error: unknown) => {
          for (const key of part) for (const waiter of batch.get(key) ?? []) waiter.reject(error);
        },
      )
      .finally(() => {
        inFlight -= 1;
        schedule();
      });
  };

  function flush() {
    scheduled = false;
    const batch = waiting;
    waiting = new Map();
    const keys = [...batch.keys()];
    for (let start = 0; start < keys.length; start += LOOKUP_BATCH_MAX) {
      readPart(keys.slice(start, start + LOOKUP_BATCH_MAX), batch);
    }
  }

  return (key) =>
    new Promise<Row | undefined>((resolve, reject) => {
      const waiters = waiting.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
      schedule();
    });
}

interface Waiter<Row> {
  resolve: (row: Row | undefined) => void;
  reject: (error: unknown) => void;
}
