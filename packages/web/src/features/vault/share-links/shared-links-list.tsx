import { useCallback, useEffect, useState } from 'react';
import { buttonSecondary } from '@/components/ui/styles';
import { serverMessageOf } from '@/lib/api-errors';
import { labelLinks, linkDetails, type LabelledLink } from './shared-link-labels';
import { listShareLinks, revokeShareLink } from './share-links-api';

const small = `${buttonSecondary} !px-2 !py-1 text-xs`;
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The owner's live share links, this item's first, each with what it shares (its sealed label),
 * the openings it has left, and Revoke (at once, for everyone).
 */
export function SharedLinksList({
  refresh,
  entryId,
  vaultKey,
}: {
  refresh: number;
  entryId: string;
  vaultKey: CryptoKey | null;
}) {
  const [links, setLinks] = useState<LabelledLink[] | null>(null);
  const [note, setNote] = useState<string | null>(null);

  const load = useCallback(() => {
    listShareLinks()
      .then((listed) => labelLinks(listed, vaultKey, entryId))
      .then(setLinks, (error: unknown) => setNote(serverMessageOf(error) ?? 'Your shared links could not be listed.'));
  }, [vaultKey, entryId]);
  useEffect(load, [load, refresh]);

  const revoke = async (id: string) => {
    try {
      await revokeShareLink(id);
      setNote('Link revoked.');
      load();
    } catch (error) {
      setNote(serverMessageOf(error) ?? 'The link could not be revoked.');
    }
  };

  if (links === null || links.length === 0) return note ? <p className="text-sm text-amber-200">{note}</p> : null;
  return (
    <div className="flex flex-col gap-1">
      <h4 className="text-xs font-semibold text-slate-300">Shared links</h4>
      <ul aria-label="Shared links" className="flex flex-col divide-y divide-slate-800">
        {links.map(({ link, title, ofThisItem }) => (
          <li key={link.id} className="flex items-center justify-between gap-2 py-1 text-xs text-slate-300">
            <span>
              <span className={ofThisItem ? 'block font-medium text-slate-100' : 'block text-slate-400'}>{title}</span>
              {linkDetails(link, (iso) => dateFormat.format(Date.parse(iso)))}
            </span>
            <button type="button" className={small} aria-label={`Revoke link ${link.id}`} onClick={() => void revoke(link.id)}>
              Revoke
            </button>
          </li>
        ))}
      </ul>
      {note && (
        <p role="status" className="text-xs text-slate-300">
          {note}
        </p>
      )}
    </div>
  );
}
