import { useVirtualizer, type Range, type Virtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useRef, useState } from 'react';
import { rowsToRender } from '../lib/rows-to-render';
import type { VaultItem } from '../lib/vault-item';
import { EntryRow, nameIdOf, ROW_MIN_HEIGHT_PX, rowClassOf, type RowActions } from './entry-row';

/**
 * A row's height without forcing a layout. The library's default reads `offsetHeight` when a
 * row it never measured mounts; a search key mounts a screenful of such rows, and each read,
 * after the row before it was inserted, forced a layout of its own (most of a 10,000-entry
 * keystroke). Here a mounting row takes the height its entry had, or the one-line height, and
 * the ResizeObserver, which reports after layout and before the paint of the same frame,
 * corrects the rows that differ.
 */
function measureRow(
  row: HTMLDivElement,
  entry: ResizeObserverEntry | undefined,
  list: Virtualizer<HTMLDivElement, HTMLDivElement>,
): number {
  const box = entry?.borderBoxSize[0];
  if (box) return Math.round(box.blockSize);
  return list.itemSizeCache.get(list.options.getItemKey(list.indexFromElement(row))) ?? ROW_MIN_HEIGHT_PX;
}

/**
 * The items whose rows beyond the view are rendered: until the task after the frame that
 * paints a change of rows (a search key, an edit), the items from before it. Meanwhile only
 * the rows in view, and the rows beyond it that show the same entry as before, render, so a
 * key creates no row out of sight before its frame; the others follow in a task of their own.
 */
function useSettledItems(items: readonly VaultItem[]): readonly VaultItem[] {
  const [settled, setSettled] = useState(items);
  useEffect(() => {
    if (settled === items) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setSettled(items));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [settled, items]);
  return settled;
}

interface EntryListProps {
  items: readonly VaultItem[];
  revealed: ReadonlyMap<string, string>;
  copied: ReadonlySet<string>;
  actions: RowActions;
}

/**
 * Only the rows in view (plus a few) are in the DOM, whatever the size of the vault.
 * Stable hooks for the performance harness: `data-testid="vault-list"` on the scroll
 * container and `data-entry-id` on every rendered row.
 */
export const EntryList = memo(function EntryList({ items, revealed, copied, actions }: EntryListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const getItemKey = useCallback((index: number) => items[index]?.id ?? index, [items]);
  const settled = useSettledItems(items);
  // Read when the rows in view change (while scrolling, at every row), so its direction is current.
  const listRef = useRef<Virtualizer<HTMLDivElement, HTMLDivElement>>(null);
  const rangeExtractor = useCallback(
    (range: Range) =>
      rowsToRender(range, listRef.current?.scrollDirection ?? null, settled === items ? undefined : (index) => settled[index] === items[index]),
    [settled, items],
  );
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    // Exactly a one-line row, so measuring a row that comes into view changes nothing and
    // costs no second render; rows that grow (a long revealed password, small screens) are
    // measured and remembered by entry id.
    estimateSize: () => ROW_MIN_HEIGHT_PX,
    getItemKey,
    measureElement: measureRow,
    rangeExtractor,
  });
  listRef.current = virtualizer;

  return (
    <div
      ref={scrollRef}
      data-testid="vault-list"
      className="max-h-[70vh] overflow-y-auto rounded-2xl border border-slate-800 bg-slate-900/80 shadow-xl"
    >
      <div role="list" aria-label="Saved passwords" className="relative" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => {
          const item = items[row.index];
          if (!item) return null;
          return (
            <div
              key={row.key}
              ref={virtualizer.measureElement}
              role="listitem"
              aria-labelledby={nameIdOf(item.id)}
              aria-posinset={row.index + 1}
              aria-setsize={items.length}
              data-index={row.index}
              data-entry-id={item.id}
              className={`absolute top-0 left-0 w-full ${rowClassOf(item)}`}
              style={{ transform: `translateY(${row.start}px)` }}
            >
              <EntryRow item={item} password={revealed.get(item.id)} copied={copied.has(item.id)} actions={actions} />
            </div>
          );
        })}
      </div>
    </div>
  );
});
