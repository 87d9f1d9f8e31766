import { describe, expect, it } from 'vitest';
import { OVERSCAN_ROWS, rowsToRender } from './rows-to-render';

const range = (startIndex: number, endIndex: number, count = 10_000) => ({ startIndex, endIndex, count });
const span = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('rowsToRender', () => {
  it('renders the rows in view and a few either side, whatever the size of the list', () => {
    expect(rowsToRender(range(500, 507))).toEqual(span(500 - OVERSCAN_ROWS, 507 + OVERSCAN_ROWS));
    expect(rowsToRender(range(500, 507)).length).toBe(8 + 2 * OVERSCAN_ROWS);
  });

  it('stops at the ends of the list', () => {
    expect(rowsToRender(range(0, 7))).toEqual(span(0, 7 + OVERSCAN_ROWS));
    expect(rowsToRender(range(9_995, 9_999))).toEqual(span(9_995 - OVERSCAN_ROWS, 9_999));
    expect(rowsToRender(range(0, 2, 3))).toEqual([0, 1, 2]);
    expect(rowsToRender(range(0, 0, 0))).toEqual([]);
  });

  it('keeps the focused row and its neighbours rendered, in list order, when it is scrolled out of view', () => {
    expect(rowsToRender(range(500, 507), 10)).toEqual([9, 10, 11, ...span(500 - OVERSCAN_ROWS, 507 + OVERSCAN_ROWS)]);
    expect(rowsToRender(range(500, 507), 9_000)).toEqual([
      ...span(500 - OVERSCAN_ROWS, 507 + OVERSCAN_ROWS),
      8_999,
      9_000,
      9_001,
    ]);
    expect(rowsToRender(range(500, 507), 503)).toEqual(span(500 - OVERSCAN_ROWS, 507 + OVERSCAN_ROWS));
    expect(rowsToRender(range(500, 507), 0)).toEqual([0, 1, ...span(500 - OVERSCAN_ROWS, 507 + OVERSCAN_ROWS)]);
    expect(rowsToRender(range(0, 7), 9_999)).toEqual([...span(0, 7 + OVERSCAN_ROWS), 9_998, 9_999]);
  });

  it('ignores a focused index the list no longer has', () => {
    expect(rowsToRender(range(0, 2, 3), 7)).toEqual([0, 1, 2]);
    expect(rowsToRender(range(0, 2, 3), -1)).toEqual([0, 1, 2]);
  });
});
