import { describe, expect, it } from 'vitest';
import { REST_OVERSCAN_ROWS, rowsToRender, SCROLL_AHEAD_ROWS } from './rows-to-render';

const range = (startIndex: number, endIndex: number, count = 1_000) => ({ startIndex, endIndex, count, overscan: 0 });
const span = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('rowsToRender', () => {
  it('keeps a few rows either side of the view at rest', () => {
    expect(rowsToRender(range(100, 107), null)).toEqual(span(100 - REST_OVERSCAN_ROWS, 107 + REST_OVERSCAN_ROWS));
  });

  it('keeps more rows ahead of the scroll, in either direction, and the few behind it', () => {
    expect(rowsToRender(range(100, 107), 'forward')).toEqual(span(100 - REST_OVERSCAN_ROWS, 107 + SCROLL_AHEAD_ROWS));
    expect(rowsToRender(range(100, 107), 'backward')).toEqual(span(100 - SCROLL_AHEAD_ROWS, 107 + REST_OVERSCAN_ROWS));
  });

  it('while the rows settle keeps beyond the view only the rows showing the same entry, and every row ahead of a scroll', () => {
    expect(rowsToRender(range(100, 107), null, () => false)).toEqual(span(100, 107));
    expect(rowsToRender(range(100, 107), null, (index) => index === 98 || index === 109)).toEqual([98, ...span(100, 107), 109]);
    expect(rowsToRender(range(100, 107), null, () => true)).toEqual(span(100 - REST_OVERSCAN_ROWS, 107 + REST_OVERSCAN_ROWS));
    expect(rowsToRender(range(100, 107), 'forward', () => false)).toEqual(
      span(100 - REST_OVERSCAN_ROWS, 107 + SCROLL_AHEAD_ROWS),
    );
  });

  it('stops at the ends of the list', () => {
    expect(rowsToRender(range(0, 7, 9), 'forward')).toEqual(span(0, 8));
    expect(rowsToRender(range(0, 2, 3), 'backward')).toEqual(span(0, 2));
    expect(rowsToRender(range(0, 0, 1), null)).toEqual([0]);
  });
});
