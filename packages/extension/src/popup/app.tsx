import { useCallback, useEffect, useState } from 'react';
import type { Status } from '../shared/messages';
import { AccountForms } from './account-forms';
import { send } from './send';
import { ServedCodePanel } from './served-code-panel';
import { VaultView } from './vault-view';

/** The popup: whichever step the service worker says the extension is at. */
export function App() {
  const [status, setStatus] = useState<Status | null>(null);
  const [error, setError] = useState('');
  const refresh = useCallback(async () => {
    try {
      setStatus(await send<Status>({ type: 'status' }));
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    }
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);

  return (
    <main className="popup">
      <header className="bar">
        <h1>Lockit</h1>
        {status?.server && <span className="server">{new URL(status.server).host}</span>}
      </header>
      <ServedCodePanel />
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {status === null ? (
        <p className="muted">Loading…</p>
      ) : status.state === 'unlocked' ? (
        <VaultView status={status} onChange={refresh} />
      ) : (
        <AccountForms status={status} onChange={refresh} />
      )}
    </main>
  );
}
