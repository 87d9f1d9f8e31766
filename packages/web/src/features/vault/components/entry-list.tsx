import { useVirtualizer, type Range, type Virtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useRef, useState } from 'react';
import { useFocusStaysWithEntry, useRowSlotRefs } from '../hooks/use-row-slots';
import { rowsToRender } from '../lib/rows-to-render';
import type { VaultEntry } from '@lockit/client-core';
import {
  EntryRow,
  nameIdOf,
  ROW_FOCUS_ATTRIBUTE,
  ROW_MIN_HEIGHT_PX,
  rowClassOf,
  type RowActions,
  type RowCopyField,
} from './entry-row';

/**
 * A row's height without forcing a layout. The library's default reads `offsetHeight` when a
 * row starts showing an entry it never measured; a search key does that for a screenful of
 * rows, and each read, after the row before it changed, forced a layout of its own (most of a
 * 10,000-entry keystroke). Here such a row takes the height its entry had, or the one-line
 * height, and a ResizeObserver, which reports after layout and before the paint of the same
 * frame, corrects the rows that differ (use-row-slots.ts).
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
 * The entries whose rows beyond the view are rendered: until the task after the frame that
 * paints a change of rows (a search key, an edit), the entries from before it. Meanwhile only
 * the rows in view, and the rows beyond it that show the same entry as before, render, so a
 * key creates no row out of sight before its frame; the others follow in a task of their own.
 */
function useSettledEntries(entries: readonly VaultEntry[]): readonly VaultEntry[] {
  const [settled, setSettled] = useState(entries);
  useEffect(() => {
    if (settled === entries) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setSettled(entries));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [settled, entries]);
  return settled;
}

interface EntryListProps {
  entries: readonly VaultEntry[];
  revealed: ReadonlyMap<string, string>;
  /** By entry id, the field copied from its row in the last 2 s. */
  copied: ReadonlyMap<string, RowCopyField>;
  /** The item view sits beside the list (rowClassOf). */
  besideItemView: boolean;
  /**
   * An entry to bring into view (a new one, just added): scrolled to and made the list's Tab
   * stop once it is listed, once per request object.
   */
  reveal?: { id: string } | null;
  actions: RowActions;
}

/** Keys that move through the list, and where each goes from `index` of `count` rows. */
const MOVES: Record<string, (index: number, count: number, page: number) => number> = {
  ArrowDown: (index, count) => Math.min(index + 1, count - 1),
  ArrowUp: (index) => Math.max(index - 1, 0),
  Home: () => 0,
  End: (_index, count) => count - 1,
  PageDown: (index, count, page) => Math.min(index + page, count - 1),
  PageUp: (index, _count, page) => Math.max(index - page, 0),
};

/** Frames to wait for a row scrolled to (Home, End, a page away) to be rendered. */
const FOCUS_RETRY_FRAMES = 10;

/**
 * Only the rows in view (plus a few) are in the DOM, whatever the size of the vault.
 * Stable hooks for the performance harness: `data-testid="vault-list"` on the scroll
 * container and `data-entry-id` on every rendered row.
 *
 * Keyboard: only one row's controls are Tab stops (roving focus, on the row last focused);
 * the arrow keys, Home, End, Page Up and Page Down move focus to another row's name,
 * scrolling it into view, and Enter on a name opens the entry.
 */
export const EntryList = memo(function EntryList({
  entries,
  revealed,
  copied,
  besideItemView,
  reveal = null,
  actions,
}: EntryListProps) {
  /** The entry whose row holds the list's one Tab stop: the last one focused. */
  const [activeId, setActiveId] = useState<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const getItemKey = useCallback((index: number) => entries[index]?.id ?? index, [entries]);
  const settled = useSettledEntries(entries);
  // Read when the rows in view change (while scrolling, at every row), so its direction is current.
  const listRef = useRef<Virtualizer<HTMLDivElement, HTMLDivElement>>(null);
  const rangeExtractor = useCallback(
    (range: Range) =>
      rowsToRender(
        range,
        listRef.current?.scrollDirection ?? null,
        settled === entries ? undefined : (index) => settled[index] === entries[index],
      ),
    [settled, entries],
  );
  const virtualizer = useVirtualizer({
    count: entries.length,
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
  const refFor = useRowSlotRefs(listRef);

  // The Tab stop: the active entry's row while it is listed, else the first row.
  const activeIndex = activeId === null ? -1 : entries.findIndex((entry) => entry.id === activeId);
  const tabbableIndex = activeIndex === -1 ? 0 : activeIndex;

  const pendingFocus = useRef<{ id: string; frame: number } | null>(null);
  useEffect(() => () => cancelAnimationFrame(pendingFocus.current?.frame ?? 0), []);
  const focusRow = useCallback((id: string, triesLeft = FOCUS_RETRY_FRAMES) => {
    const target = scrollRef.current?.querySelector<HTMLElement>(`[data-entry-id="${CSS.escape(id)}"] [${ROW_FOCUS_ATTRIBUTE}]`);
    if (target) {
      pendingFocus.current = null;
      target.focus();
      return;
    }
    if (triesLeft === 0) return;
    pendingFocus.current = { id, frame: requestAnimationFrame(() => focusRow(id, triesLeft - 1)) };
  }, []);

  // The entry asked for, once it is listed: the list may get it a render after the request.
  const revealDone = useRef<{ id: string } | null>(null);
  const pendingReveal = useRef(0);
  useEffect(() => () => cancelAnimationFrame(pendingReveal.current), []);
  useEffect(() => {
    if (reveal === null || revealDone.current === reveal) return;
    const index = entries.findIndex((entry) => entry.id === reveal.id);
    if (index === -1) return;
    revealDone.current = reveal;
    setActiveId(reveal.id);
    virtualizer.scrollToIndex(index, { align: 'auto' });
    // The list's box may itself reach below the window (it is 70 % of the window's height,
    // under the page's header): once rendered, the row is brought on screen there too.
    const onScreen = (id: string, framesLeft: number) => {
      const row = scrollRef.current?.querySelector<HTMLElement>(`[data-entry-id="${CSS.escape(id)}"]`);
      if (row) row.scrollIntoView({ block: 'nearest' });
      else if (framesLeft > 0) pendingReveal.current = requestAnimationFrame(() => onScreen(id, framesLeft - 1));
    };
    cancelAnimationFrame(pendingReveal.current);
    pendingReveal.current = requestAnimationFrame(() => onScreen(reveal.id, FOCUS_RETRY_FRAMES));
  }, [reveal, entries, virtualizer]);

  // A native listener: the list is a composite widget (one row of Tab stops, arrows between rows), which
  // the lint rules for plain elements do not know.
  const listBoxRef = useRef<HTMLDivElement>(null);
  useFocusStaysWithEntry(listBoxRef);
  useEffect(() => {
    const list = listBoxRef.current;
    if (!list) return;
    const onKeyDown = (event: KeyboardEvent) => {
      const move = MOVES[event.key];
      if (!move || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const row = (event.target as HTMLElement).closest<HTMLElement>('[data-entry-id]');
      const from = row ? entries.findIndex((entry) => entry.id === row.dataset.entryId) : -1;
      if (from === -1) return;
      event.preventDefault();
      const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 0) / ROW_MIN_HEIGHT_PX) - 1);
      const to = move(from, entries.length, page);
      const target = entries[to];
      if (!target) return;
      setActiveId(target.id);
      virtualizer.scrollToIndex(to, { align: 'auto' });
      cancelAnimationFrame(pendingFocus.current?.frame ?? 0);
      focusRow(target.id);
    };
    const onFocusIn = (event: FocusEvent) => {
      const id = (event.target as HTMLElement).closest<HTMLElement>('[data-entry-id]')?.dataset.entryId;
      if (id !== undefined) setActiveId(id);
    };
    list.addEventListener('keydown', onKeyDown);
    list.addEventListener('focusin', onFocusIn);
    return () => {
      list.removeEventListener('keydown', onKeyDown);
      list.removeEventListener('focusin', onFocusIn);
    };
  }, [entries, virtualizer, focusRow]);

  return (
    <div
      ref={scrollRef}
      data-testid="vault-list"
      className="max-h-[70vh] overflow-y-auto rounded-2xl border border-slate-800 bg-slate-900/80 shadow-xl"
    >
      <div
        role="list"
        aria-label="Saved passwords"
        className="relative"
        ref={listBoxRef}
        style={{ height: virtualizer.getTotalSize() }}
      >
        {virtualizer.getVirtualItems().map((row) => {
          const entry = entries[row.index];
          if (!entry) return null;
          return (
            <div
              // By position: a search key gives the rows in view other entries (use-row-slots.ts).
              key={row.index}
              ref={refFor(entry)}
              role="listitem"
              aria-labelledby={nameIdOf(entry.id)}
              aria-posinset={row.index + 1}
              aria-setsize={entries.length}
              data-index={row.index}
              data-entry-id={entry.id}
              className={`absolute top-0 left-0 w-full ${rowClassOf(entry, besideItemView)}`}
              style={{ transform: `translateY(${row.start}px)` }}
            >
              <EntryRow
                entry={entry}
                password={revealed.get(entry.id)}
                copied={copied.get(entry.id)}
                tabbable={row.index === tabbableIndex}
                besideItemView={besideItemView}
                actions={actions}
              />
            </div>
          );
        })}
      </div>
    </div>
  );
});
