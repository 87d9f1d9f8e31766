import type { Range, Virtualizer } from '@tanstack/react-virtual';

type ScrollDirection = Virtualizer<HTMLElement, HTMLElement>['scrollDirection'];

/**
 * Rows kept beyond each edge of the view at rest: a wheel notch (about 100 px) either way
 * shows rows already there. Every row in the DOM is one a search key replaces, so at rest
 * the list keeps no more than this.
 */
export const REST_OVERSCAN_ROWS = 2;
/** While scrolling, rows kept ahead in the scroll's direction, where a fling outruns rendering. */
export const SCROLL_AHEAD_ROWS = 8;

/**
 * The indexes to render for the rows in view (`range`): a few either side at rest, more ahead
 * while scrolling. In list order, as the virtualizer expects. While the rows settle (they just
 * changed under the view, as on a search key), `sameEntryAs` tells which indexes still show
 * the entry they showed before: at rest only those are kept beyond the view, so the key's
 * frame creates no row out of sight; the rest follow once the rows have settled.
 */
export function rowsToRender(range: Range, direction: ScrollDirection, sameEntryAs?: (index: number) => boolean): number[] {
  const before = direction === 'backward' ? SCROLL_AHEAD_ROWS : REST_OVERSCAN_ROWS;
  const after = direction === 'forward' ? SCROLL_AHEAD_ROWS : REST_OVERSCAN_ROWS;
  const start = Math.max(range.startIndex - before, 0);
  const end = Math.min(range.endIndex + after, range.count - 1);
  const settling = direction === null && sameEntryAs !== undefined;
  const indexes: number[] = [];
  for (let index = start; index <= end; index++) {
    const inView = index >= range.startIndex && index <= range.endIndex;
    if (inView || !settling || sameEntryAs(index)) indexes.push(index);
  }
  return indexes;
}
