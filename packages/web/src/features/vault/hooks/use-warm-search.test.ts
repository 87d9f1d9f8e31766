import { cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useWarmSearch } from './use-warm-search';

/** Entries whose search text counts how often a search reads it. */
function countedEntries(texts: string[]) {
  let reads = 0;
  const entries = texts.map((text) => ({
    get searchText() {
      reads++;
      return text;
    },
  }));
  return { entries, reads: () => reads };
}

describe('useWarmSearch', () => {
  let idle: Map<number, IdleRequestCallback>;

  beforeEach(() => {
    idle = new Map();
    let next = 0;
    vi.stubGlobal('requestIdleCallback', (callback: IdleRequestCallback) => {
      idle.set(++next, callback);
      return next;
    });
    vi.stubGlobal('cancelIdleCallback', (id: number) => idle.delete(id));
  });

  afterEach(() => {
    cleanup(); // unmounts while the stand-ins are still there
    vi.unstubAllGlobals();
  });

  const runIdle = () => {
    const callbacks = [...idle.values()];
    idle.clear();
    for (const callback of callbacks) callback({ didTimeout: false, timeRemaining: () => 50 });
  };

  it('reads every entry once when the page is next idle, not while rendering', () => {
    const { entries, reads } = countedEntries(['github\nalice', 'bank\nbob', 'mail\ncarol']);
    renderHook(() => useWarmSearch(entries));
    expect(reads()).toBe(0);
    runIdle();
    expect(reads()).toBe(3);
  });

  it('warms a new list again, and drops a pending warm-up when the list changes or the view goes', () => {
    const first = countedEntries(['github\nalice']);
    const second = countedEntries(['bank\nbob', 'mail\ncarol']);
    const { rerender, unmount } = renderHook(({ entries }) => useWarmSearch(entries), {
      initialProps: { entries: first.entries },
    });
    rerender({ entries: second.entries });
    runIdle();
    expect(first.reads()).toBe(0);
    expect(second.reads()).toBe(2);

    rerender({ entries: first.entries });
    unmount();
    runIdle();
    expect(first.reads()).toBe(0);
  });

  it('does nothing for an empty list', () => {
    renderHook(() => useWarmSearch([]));
    expect(idle.size).toBe(0);
  });
});
