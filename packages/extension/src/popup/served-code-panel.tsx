import { useEffect, useState } from 'react';
import type { ServedCodeStatus } from '../shared/messages';
import { send, targetTabId } from './send';

/** Problems listed by name at most; the rest are counted. */
const SHOWN = 5;

/**
 * The served-code check of the tab (decision 0082), when it shows a page of the connected
 * server: a plain warning naming each file that is not this release's, or a quiet line saying
 * the web vault was checked. Nothing for other tabs. Shown whatever the lock state: the check
 * needs no sign-in, and the warning matters most before one.
 */
export function ServedCodePanel() {
  const [status, setStatus] = useState<ServedCodeStatus | null>(null);
  useEffect(() => {
    let current = true;
    void targetTabId().then(async (tabId) => {
      if (tabId === undefined) return;
      const found = await send<ServedCodeStatus | null>({ type: 'served-code-verdict', tabId }).catch(() => null);
      if (current) setStatus(found);
    });
    return () => {
      current = false;
    };
  }, []);

  if (status === null) return null;
  if (status.problems.length === 0) {
    return (
      <p className="served-ok" role="status">
        Web vault checked: its {status.matched} files are those of Lockit {status.release}.
      </p>
    );
  }
  const rest = status.problems.length - SHOWN;
  return (
    <section className="served-warning" role="alert" aria-labelledby="served-warning-title">
      <h2 id="served-warning-title">Warning: this web vault is not Lockit’s code</h2>
      <p>
        The server at {new URL(status.url).host} sent code that differs from Lockit {status.release}. It could capture your master
        password. Do not sign in on this page; ask the server’s operator.
      </p>
      <ul>
        {status.problems.slice(0, SHOWN).map(({ what, problem }) => (
          <li key={`${what} ${problem}`}>
            <code>{displayed(what)}</code>: {problem}
          </li>
        ))}
        {rest > 0 && <li>and {rest} more</li>}
      </ul>
    </section>
  );
}

/** A file of the server by its path; anything else as it is. */
function displayed(what: string): string {
  return URL.canParse(what) ? new URL(what).pathname : what;
}
