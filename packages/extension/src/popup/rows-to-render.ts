/** Rows kept beyond each edge of the view: Tab moves into one before the view scrolls to it. */
export const OVERSCAN_ROWS = 3;

/** The rows in view, as the virtualizer reports them (inclusive indexes of `count`). */
export interface ViewRange {
  startIndex: number;
  endIndex: number;
  count: number;
}

/**
 * The indexes of the list's rows to render, in list order: the rows in view and OVERSCAN_ROWS
 * either side (so Tab and Shift+Tab always have a next row to move into, and the browser
 * scrolls it into view), and the row holding focus with its two neighbours wherever they are:
 * scrolling it out of view neither unmounts the focused button (focus would fall to the page)
 * nor breaks Tab order, which goes on from it to the row after or before.
 */
export function rowsToRender(range: ViewRange, focused: number | null = null): number[] {
  if (range.count <= 0) return [];
  const start = Math.max(range.startIndex - OVERSCAN_ROWS, 0);
  const end = Math.min(range.endIndex + OVERSCAN_ROWS, range.count - 1);
  const wanted = new Set<number>();
  for (let index = start; index <= end; index++) wanted.add(index);
  if (focused !== null && focused >= 0 && focused < range.count) {
    for (let index = Math.max(focused - 1, 0); index <= Math.min(focused + 1, range.count - 1); index++) wanted.add(index);
  }
  return [...wanted].sort((a, b) => a - b);
}
