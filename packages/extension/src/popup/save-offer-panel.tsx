import { useEffect, useState } from 'react';
import type { SaveOffer } from '../shared/messages';
import { send } from './send';
import { useAction } from './use-action';

interface Props {
  tabId: number | undefined;
  /** Called after a save, so the list shows the new or changed item. */
  onSaved: (said: string) => void;
}

/**
 * The tab's save offer, if any: "Save login for bank.test?" or "Update the password of …?",
 * answered here only (never in the page). The popup sees the host and user name, never the
 * password; nothing is saved until the person presses Save or Update.
 */
export function SaveOfferPanel({ tabId, onSaved }: Props) {
  const [offer, setOffer] = useState<SaveOffer | null>(null);
  const { busy, error, run } = useAction();

  useEffect(() => {
    if (tabId === undefined) return;
    let current = true;
    send<SaveOffer | null>({ type: 'save-offer', tabId }).then(
      (found) => current && setOffer(found),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [tabId]);

  if (offer === null || tabId === undefined) return null;
  const answer = (choice: 'save' | 'dismiss') =>
    void run(async () => {
      const said = await send<string>({ type: 'answer-offer', tabId, offerId: offer.offerId, answer: choice });
      setOffer(null);
      if (choice === 'save') onSaved(said);
    });
  const title = offer.kind === 'update' ? `Update the password of ${offer.itemName}?` : `Save login for ${offer.host}?`;
  return (
    <section className="save-offer" aria-label="Save login">
      <h2>{title}</h2>
      <p className="muted">{offer.username === '' ? 'No user name' : offer.username}</p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <div className="row">
        <button type="button" className="primary" disabled={busy} onClick={() => answer('save')}>
          {offer.kind === 'update' ? 'Update' : 'Save'}
        </button>
        <button type="button" disabled={busy} onClick={() => answer('dismiss')}>
          Not now
        </button>
      </div>
    </section>
  );
}
