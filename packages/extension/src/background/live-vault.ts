import { liveChanges, type LiveChanges } from '@lockit/client-core';
import { apiPaths, CLIENT_HEADER, CLIENT_HEADER_VALUE } from '@lockit/contract/paths';
import { EventSource } from 'eventsource';
import { LIVE_PORT, VAULT_CHANGED } from '../shared/live-port';
import type { VaultSession } from './vault-session';

/**
 * Follows the server's event stream (decision 0066) while a popup is open: its port keeps this
 * worker alive, which a stream alone would not. Each notice makes the session catch up through
 * the change cursor (checked whole, as every catch-up is), and the popup is told to ask for its
 * list again. With no popup open there is no stream: the next use catches up from the cursor.
 *
 * A service worker has no EventSource: the `eventsource` package's, over the extension's fetch
 * with the server's cookies, is the same protocol.
 */
export function followWhilePopupOpen(port: chrome.runtime.Port, session: VaultSession, server: string): LiveChanges {
  const live = liveChanges({
    open: (url) =>
      new EventSource(url, {
        fetch: (input, init) =>
          fetch(input, {
            ...init,
            credentials: 'include',
            headers: { ...(init?.headers as Record<string, string> | undefined), [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
          }),
      }),
    url: `${server}${apiPaths.vaultEvents}`,
    // The stream catches up at each (re)connection too, mostly finding nothing: the popup is told
    // only when the list changed (a new list), not asked to fetch the whole vault again for nothing.
    catchUp: async () => {
      const before = session.heldEntries();
      session.entriesChanged();
      if ((await session.entries()) !== before) port.postMessage({ type: VAULT_CHANGED });
    },
    // A refused catch-up is the popup's list to say (it asks, and gets the refusal).
    onError: () => port.postMessage({ type: VAULT_CHANGED }),
  });
  port.onDisconnect.addListener(() => live.close());
  return live;
}

/**
 * Whether a port is this extension's popup asking to be told of changes. A content script's
 * sender is the web page's URL, another extension's has another id: both are refused.
 */
export function isPopupLivePort(
  port: { name: string; sender?: { id?: string; url?: string } },
  extensionId: string,
  extensionBase: string,
): boolean {
  return (
    port.name === LIVE_PORT &&
    port.sender?.id === extensionId &&
    port.sender.url?.startsWith(`${extensionBase}popup.html`) === true
  );
}
