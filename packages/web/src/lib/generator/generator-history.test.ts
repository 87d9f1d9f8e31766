import { describe, expect, it } from 'vitest';
import { EMPTY_GENERATOR_HISTORY, generatorHistorySchema, HISTORY_LIMIT, withGenerated } from './generator-history';

const at = (n: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString();

describe('withGenerated', () => {
  it('puts the newest first, with its time and item name', () => {
    const one = withGenerated(EMPTY_GENERATOR_HISTORY, { value: 'first', at: at(1) });
    const two = withGenerated(one, { value: 'second', at: at(2), item: 'Mail' });
    expect(two.entries).toEqual([
      { value: 'second', at: at(2), item: 'Mail' },
      { value: 'first', at: at(1) },
    ]);
    expect(generatorHistorySchema.parse(two)).toEqual(two);
  });

  it('moves a value used again to the top, keeping the item name it had', () => {
    let history = withGenerated(EMPTY_GENERATOR_HISTORY, { value: 'x', at: at(1), item: 'Bank' });
    history = withGenerated(history, { value: 'y', at: at(2) });
    history = withGenerated(history, { value: 'x', at: at(3) });
    expect(history.entries).toEqual([
      { value: 'x', at: at(3), item: 'Bank' },
      { value: 'y', at: at(2) },
    ]);
  });

  it(`keeps at most ${HISTORY_LIMIT} entries, dropping the oldest`, () => {
    let history = EMPTY_GENERATOR_HISTORY;
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) history = withGenerated(history, { value: `v${i}`, at: at(i % 60) });
    expect(history.entries).toHaveLength(HISTORY_LIMIT);
    expect(history.entries[0]!.value).toBe(`v${HISTORY_LIMIT + 4}`);
    expect(history.entries.at(-1)!.value).toBe('v5');
    expect(generatorHistorySchema.safeParse(history).success).toBe(true);
  });

  it('drops the value the new one replaces, and only that one', () => {
    let history = withGenerated(EMPTY_GENERATOR_HISTORY, { value: 'kept', at: at(1) });
    history = withGenerated(history, { value: 'filled', at: at(2), item: 'Bank' });
    history = withGenerated(history, { value: 'refilled', at: at(3), item: 'Bank' }, 'filled');
    expect(history.entries.map((entry) => entry.value)).toEqual(['refilled', 'kept']);
  });
});
