import { useEffect, useState } from 'react';
import { LIVE_PORT, VAULT_CHANGED } from '../shared/live-port';

/**
 * A count that rises each time the service worker caught up with a change made elsewhere while
 * this popup is open (its port is what keeps the worker following the server's notices).
 */
export function useVaultChanges(): number {
  const [changes, setChanges] = useState(0);
  useEffect(() => {
    const port = chrome.runtime.connect({ name: LIVE_PORT });
    port.onMessage.addListener((message: unknown) => {
      if ((message as { type?: unknown } | null)?.type === VAULT_CHANGED) setChanges((count) => count + 1);
    });
    return () => port.disconnect();
  }, []);
  return changes;
}
