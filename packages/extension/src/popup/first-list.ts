import type { ItemSummary, Status } from '../shared/messages';
import { send, targetTabId } from './send';

/**
 * The rows asked for before the first paint: more than the popup's list shows in view (about
 * seven), and a page the worker answers in a few ms where the whole of a 10,000-item vault
 * takes tens. The rest is asked for right after.
 */
export const FIRST_PAGE = 40;

/** The tab the popup acts on and the first page of its unsearched list. */
export interface FirstListAnswer {
  tabId: number | undefined;
  items: ItemSummary[];
  /** Every item is in `items`: there is no rest to ask for. */
  complete: boolean;
}

let status: Promise<Status> | null = null;
let list: Promise<FirstListAnswer> | null = null;

/**
 * Sends the status and the first list request at once, at the top of the popup's script: the
 * worker (woken if it was stopped) opens the vault and answers while the page parses and mounts
 * React, instead of after. A locked vault rejects the list; the Unlock form shows instead.
 * Only the first page is asked for (FIRST_PAGE): what the first paint shows.
 */
export function startFirstList(): void {
  list = targetTabId().then(async (tabId) => {
    const request = { type: 'items', query: '', limit: FIRST_PAGE, ...(tabId !== undefined ? { tabId } : {}) } as const;
    const items = await send<ItemSummary[]>(request);
    return { tabId, items, complete: items.length < FIRST_PAGE };
  });
  status = send<Status>({ type: 'status' });
  // Whoever takes one handles its rejection; one nobody takes must not be reported as unhandled.
  list.catch(() => undefined);
  status.catch(() => undefined);
}

/** The early status, once: later asks (after a lock, an unlock) go to the worker again. */
export function takeFirstStatus(): Promise<Status> | null {
  const taken = status;
  status = null;
  return taken;
}

/** The early list, once: a list shown later (after an unlock) is asked for again. */
export function takeFirstList(): Promise<FirstListAnswer> | null {
  const taken = list;
  list = null;
  return taken;
}
