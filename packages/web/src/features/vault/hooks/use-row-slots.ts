import type { Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import type { VaultEntry } from '@lockit/client-core';

/*
 * The list's row elements are slots, keyed by position: a search key that changes the entries
 * under the view gives the rows already there new text and attributes instead of removing them
 * and creating a screenful of new elements (their creation and first style took 2-3 ms of such
 * a key, traced). So an element may show one entry, then another. The two hooks here keep
 * what used to follow from an element being one entry's: its size, and the focus.
 */

type List = Virtualizer<HTMLDivElement, HTMLDivElement>;
type RowRef = (node: HTMLDivElement | null) => void;

/** What a row's roving focus can rest on: its buttons and a revealed password's scroll box. */
const FOCUSABLE = 'button, [tabindex]';

/**
 * The ref of a row element showing `entry`. The virtualizer keeps sizes by entry, and learns an
 * element's size from a ResizeObserver, which reports only a change of the element's own size.
 * So when an element starts showing an entry, it is registered under that entry (and no longer
 * under the one before) and looked at once more after the next layout: an entry whose size is
 * not known yet, or stale (two-line rows on a phone, the window's width changed while it was
 * out of view), is corrected in the same frame, as a newly created row is. No layout is
 * forced: the size comes from the observer's report.
 */
export function useRowSlotRefs(listRef: RefObject<List | null>): (entry: VaultEntry) => RowRef {
  const refs = useRef(new WeakMap<VaultEntry, RowRef>());
  const fresh = useRef<ResizeObserver | null>(null);
  useEffect(() => () => fresh.current?.disconnect(), []);

  const freshLook = useCallback(
    (node: HTMLDivElement) => {
      // Without one (jsdom) the virtualizer measures nothing either.
      if (typeof ResizeObserver !== 'function') return;
      fresh.current ??= new ResizeObserver((reports) => {
        for (const report of reports) {
          fresh.current?.unobserve(report.target);
          const list = listRef.current;
          const box = report.borderBoxSize[0];
          if (!list || !box || !report.target.isConnected) continue;
          list.resizeItem(list.indexFromElement(report.target as HTMLDivElement), Math.round(box.blockSize));
        }
      });
      // Observing starts with a report of the current size, after the next layout.
      fresh.current.observe(node);
    },
    [listRef],
  );

  return useCallback(
    (entry: VaultEntry) => {
      let ref = refs.current.get(entry);
      if (ref) return ref;
      ref = (node) => {
        const list = listRef.current;
        if (!list) return;
        if (node === null) {
          list.measureElement(null);
          return;
        }
        // The entry it showed before no longer owns it: the virtualizer would stop observing it
        // when that entry's row is next created elsewhere.
        for (const [key, cached] of list.elementsCache) if (cached === node && key !== entry.id) list.elementsCache.delete(key);
        list.measureElement(node);
        freshLook(node);
      };
      refs.current.set(entry, ref);
      return ref;
    },
    [listRef, freshLook],
  );
}

/**
 * Invariant: a focused control of a row acts for the entry it was focused on. When the list
 * changes under the focus (an entry added above it elsewhere, a search), the focused element
 * may now show another entry: focus moves to the same control of its entry's row, or, when that
 * row is no longer rendered, leaves the list, as it did when each entry had its own element.
 */
export function useFocusStaysWithEntry(listBox: RefObject<HTMLElement | null>): void {
  /** The element focused in the list, and the entry its row showed then. */
  const focusedOn = useRef<{ element: HTMLElement; id: string } | null>(null);
  useEffect(() => {
    const list = listBox.current;
    if (!list) return;
    const onFocusIn = (event: FocusEvent) => {
      const element = event.target as HTMLElement;
      const id = element.closest<HTMLElement>('[data-entry-id]')?.dataset.entryId;
      focusedOn.current = id === undefined ? null : { element, id };
    };
    list.addEventListener('focusin', onFocusIn);
    return () => list.removeEventListener('focusin', onFocusIn);
  }, [listBox]);

  useLayoutEffect(() => {
    const list = listBox.current;
    const was = focusedOn.current;
    if (!list || !was || document.activeElement !== was.element) return;
    const row = was.element.closest<HTMLElement>('[data-entry-id]');
    if (!row || row.dataset.entryId === was.id) return;
    const at = [...row.querySelectorAll<HTMLElement>(FOCUSABLE)].indexOf(was.element);
    const home = list.querySelector<HTMLElement>(`[data-entry-id="${CSS.escape(was.id)}"]`);
    const target = home?.querySelectorAll<HTMLElement>(FOCUSABLE)[at];
    focusedOn.current = null;
    if (target) target.focus();
    else was.element.blur();
  });
}
