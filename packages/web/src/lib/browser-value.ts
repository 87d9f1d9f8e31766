import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * A value only the browser knows, read for a render: `serverValue` in the build's prerendered
 * HTML and in the render that hydrates it, so the two match; `read()` in every other render,
 * the one right after hydration included. It is not followed afterwards: for values that do
 * not change while the page lives. `read` must return the same value while it is unchanged.
 */
export function useBrowserValue<T>(read: () => T, serverValue: T): T {
  return useSyncExternalStore(noSubscription, read, () => serverValue);
}
