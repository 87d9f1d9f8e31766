import { describe, expect, it } from 'vitest';
import { createBatchedLookup, LOOKUP_BATCH_MAX, LOOKUP_READS_IN_FLIGHT } from './batched-lookup';

interface Row {
  key: string;
  value: string;
}

/** A table in memory that records every read it serves. */
function fakeTable(rows: Record<string, string>) {
  const reads: string[][] = [];
  const read = async (keys: readonly string[]) => {
    reads.push([...keys]);
    return keys.filter((key) => key in rows).map((key) => ({ key, value: rows[key]! }));
  };
  return { reads, rows, lookUp: createBatchedLookup<Row>(read, (row) => row.key) };
}

describe('batched lookup', () => {
  it('reads keys asked for together in one query, each caller getting its own row', async () => {
    const table = fakeTable({ a: 'A', b: 'B', c: 'C' });
    const found = await Promise.all(['a', 'b', 'missing', 'c', 'a'].map((key) => table.lookUp(key)));
    expect(found.map((row) => row?.value)).toEqual(['A', 'B', undefined, 'C', 'A']);
    expect(table.reads).toEqual([['a', 'b', 'missing', 'c']]);
  });

  it('never answers from a read that began before the lookup was asked for', async () => {
    const table = fakeTable({ s: 'session' });
    const before = table.lookUp('s');
    await new Promise((resolve) => setImmediate(resolve)); // the first read is under way
    delete table.rows.s; // a logout commits
    const after = table.lookUp('s');
    expect((await before)?.value).toBe('session');
    expect(await after).toBeUndefined();
    expect(table.reads).toEqual([['s'], ['s']]);
  });

  it(`splits more than ${LOOKUP_BATCH_MAX} distinct keys into several reads`, async () => {
    const keys = Array.from({ length: LOOKUP_BATCH_MAX * 2 + 1 }, (_, i) => `k${i}`);
    const table = fakeTable(Object.fromEntries(keys.map((key) => [key, key.toUpperCase()])));
    const found = await Promise.all(keys.map((key) => table.lookUp(key)));
    expect(found.map((row) => row?.value)).toEqual(keys.map((key) => key.toUpperCase()));
    expect(table.reads.map((read) => read.length)).toEqual([LOOKUP_BATCH_MAX, LOOKUP_BATCH_MAX, 1]);
  });

  it(`keeps at most ${LOOKUP_READS_IN_FLIGHT} reads out; lookups asked meanwhile go together in the next`, async () => {
    const reads: Array<{ keys: readonly string[]; answer: () => void }> = [];
    const lookUp = createBatchedLookup<Row>(
      (keys) => new Promise((resolve) => reads.push({ keys, answer: () => resolve(keys.map((key) => ({ key, value: key }))) })),
      (row) => row.key,
    );
    const nextRound = () => new Promise((resolve) => setImmediate(resolve));
    const early: Array<Promise<Row | undefined>> = [];
    for (let i = 0; i < LOOKUP_READS_IN_FLIGHT; i++) {
      early.push(lookUp(`early${i}`));
      await nextRound(); // its read goes out and stays out
    }
    const late = ['x', 'y', 'x'].map((key) => lookUp(key));
    await nextRound();
    await nextRound();
    expect(reads.map((r) => r.keys)).toEqual(early.map((_, i) => [`early${i}`]));
    reads[0]!.answer();
    expect((await early[0])?.value).toBe('early0');
    await nextRound();
    await nextRound();
    expect(reads.map((r) => r.keys).slice(LOOKUP_READS_IN_FLIGHT)).toEqual([['x', 'y']]);
    for (const r of reads.slice(1)) r.answer();
    expect((await Promise.all(late)).map((row) => row?.value)).toEqual(['x', 'y', 'x']);
  });

  it('fails every caller of a failed read, and the next lookup reads again', async () => {
    let fail = true;
    const lookUp = createBatchedLookup<Row>(
      async (keys) => {
        if (fail) throw new Error('database down');
        return keys.map((key) => ({ key, value: key }));
      },
      (row) => row.key,
    );
    const failed = await Promise.allSettled([lookUp('a'), lookUp('b')]);
    expect(failed.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect((await lookUp('a'))?.value).toBe('a');
  });
});
