import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import type { Status } from '../shared/messages';
import { takeFirstStatus } from './first-list';
import { send } from './send';
import { ServedCodePanel } from './served-code-panel';
import { VaultView } from './vault-view';

/** Connect, Sign in, Unlock: not needed to show an open vault, so their own chunk, loaded when shown. */
const AccountForms = lazy(() => import('./account-forms').then(({ AccountForms }) => ({ default: AccountForms })));

/** The popup: whichever step the service worker says the extension is at. */
export function App() {
  const [status, setStatus] = useState<Status | null>(null);
  const [error, setError] = useState('');
  const refresh = useCallback(async () => {
    try {
      // The first time, the status asked for before React loaded (first-list.ts).
      setStatus(await (takeFirstStatus() ?? send<Status>({ type: 'status' })));
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
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <AccountForms status={status} onChange={refresh} />
        </Suspense>
      )}
    </main>
  );
}
