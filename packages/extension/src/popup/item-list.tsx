import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useRef, useState, type FocusEvent } from 'react';
import type { ItemSummary } from '../shared/messages';
import { rowsToRender } from './rows-to-render';

/** A row's height, fixed in popup.css (.item): rows need no measuring, so a scroll renders once. */
export const ROW_HEIGHT_PX = 50;

export type CopyField = 'username' | 'password' | 'totp';

interface RowActions {
  onFill: (item: ItemSummary) => void;
  onCopy: (item: ItemSummary, field: CopyField, label: string) => void;
}

interface ListProps extends RowActions {
  title: string;
  items: ItemSummary[];
  empty: string;
}

/** A short list (the tab's site's items): every row in the DOM. */
export function ItemList({ title, items, empty, onFill, onCopy }: ListProps) {
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      {items.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="items">
          {items.map((item) => (
            <li key={item.id} className="item">
              <ItemRow item={item} onFill={onFill} onCopy={onCopy} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The whole vault or a search's results, however many: only the rows in view (and a few either
 * side, rowsToRender) are in the DOM, inside a scrolling box of its own. Tab walks the rendered
 * rows' buttons in list order; a button focused out of view is scrolled to by the browser, which
 * renders the rows after it. Each row says its place in the whole list (aria-posinset).
 */
export function VirtualItemList({ title, items, empty, onFill, onCopy }: ListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const focused = focusedId === null ? -1 : items.findIndex((item) => item.id === focusedId);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT_PX,
    getItemKey: useCallback((index: number) => items[index]?.id ?? index, [items]),
    rangeExtractor: useCallback(
      (range: { startIndex: number; endIndex: number; count: number }) => rowsToRender(range, focused),
      [focused],
    ),
    // Before the box is laid out, the popup's list height, so the first render already holds the rows in view.
    initialRect: { width: 336, height: 320 },
  });
  const onFocus = (event: FocusEvent<HTMLElement>) => {
    const id = (event.target as HTMLElement).closest<HTMLElement>('[data-item-id]')?.dataset.itemId;
    if (id !== undefined) setFocusedId(id);
  };
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      {items.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <div className="items-scroll" ref={scrollRef} data-testid="item-list">
          <ul className="items" style={{ height: virtualizer.getTotalSize() }} onFocus={onFocus}>
            {virtualizer.getVirtualItems().map((row) => {
              const item = items[row.index]!;
              return (
                <li
                  key={row.key}
                  className="item"
                  data-item-id={item.id}
                  aria-setsize={items.length}
                  aria-posinset={row.index + 1}
                  style={{ transform: `translateY(${row.start}px)` }}
                >
                  <ItemRow item={item} onFill={onFill} onCopy={onCopy} />
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </section>
  );
}

function ItemRow({ item, onFill, onCopy }: RowActions & { item: ItemSummary }) {
  return (
    <>
      <div className="item-text">
        <span className="item-name">{item.name}</span>
        <span className="item-user">{item.username}</span>
      </div>
      <div className="item-actions">
        {item.canFill && (
          <button type="button" aria-label={`Fill ${item.name}`} onClick={() => onFill(item)}>
            Fill
          </button>
        )}
        <button type="button" aria-label={`Copy user name of ${item.name}`} onClick={() => onCopy(item, 'username', 'User name')}>
          User
        </button>
        <button type="button" aria-label={`Copy password of ${item.name}`} onClick={() => onCopy(item, 'password', 'Password')}>
          Pass
        </button>
        {item.hasTotp && (
          <button type="button" aria-label={`Copy code of ${item.name}`} onClick={() => onCopy(item, 'totp', 'Code')}>
            Code
          </button>
        )}
      </div>
    </>
  );
}
