import { useEffect, useRef, useState } from 'react';
import type { FillResult, ItemSummary, Status } from '../shared/messages';
import { takeFirstList } from './first-list';
import { ItemList, VirtualItemList, type CopyField } from './item-list';
import { Preferences } from './preferences';
import { SaveOfferPanel } from './save-offer-panel';
import { send, targetTabId } from './send';
import { useAction } from './use-action';
import { useVaultChanges } from './use-vault-changes';

interface Props {
  status: Status;
  onChange: () => Promise<void>;
}

/** The open vault: the tab's site's items first, search, copy, fill, lock, preferences. */
export function VaultView({ status, onChange }: Props) {
  const [query, setQuery] = useState('');
  const [tabId, setTabId] = useState<number | undefined>(undefined);
  const [items, setItems] = useState<ItemSummary[] | null>(null);
  const [notice, setNotice] = useState('');
  const [tabChecked, setTabChecked] = useState(false);
  const [listError, setListError] = useState('');
  /** Bumped after a save, so the list is asked for again. */
  const [saved, setSaved] = useState(0);
  const { error, run } = useAction();
  /** Changes made elsewhere, caught up while the popup is open: the list is asked for again. */
  const changes = useVaultChanges();

  /**
   * The whole list the popup asked for before React loaded (first-list.ts), when its first page
   * held every item: the list effect skips asking again. A partial first page is shown, and the
   * effect asks for the rest at once.
   */
  const early = useRef<{ tabId: number | undefined } | null>(null);

  useEffect(() => {
    let current = true;
    const shown = (id: number | undefined) => {
      if (!current) return;
      setTabId(id);
      setTabChecked(true);
    };
    const first = takeFirstList();
    if (first === null) void targetTabId().then(shown);
    else
      first.then(
        (answer) => {
          if (!current) return;
          if (answer.complete) early.current = { tabId: answer.tabId };
          setItems(answer.items);
          shown(answer.tabId);
        },
        // Refused (the vault was locked when it was asked, say): the list effect asks again.
        () => void targetTabId().then(shown),
      );
    return () => {
      current = false;
    };
  }, []);
  useEffect(() => {
    if (!tabChecked) return;
    if (early.current !== null && query === '' && saved === 0 && changes === 0 && early.current.tabId === tabId) {
      early.current = null;
      return;
    }
    early.current = null;
    // A later query's answer wins; an earlier one that arrives late is dropped.
    let current = true;
    send<ItemSummary[]>({ type: 'items', query, ...(tabId !== undefined ? { tabId } : {}) }).then(
      (found) => {
        if (!current) return;
        setItems(found);
        setListError('');
      },
      (caught: unknown) => {
        if (current) setListError(caught instanceof Error ? caught.message : String(caught));
      },
    );
    return () => {
      current = false;
    };
  }, [query, tabId, tabChecked, saved, changes]);

  const copy = (item: ItemSummary, field: CopyField, label: string) =>
    void run(async () => {
      const value = await send<string>({ type: 'copy', id: item.id, field });
      await navigator.clipboard.writeText(value);
      setNotice(`${label} of ${item.name} copied.`);
    });
  const fill = (item: ItemSummary) =>
    void run(async () => {
      if (tabId === undefined) throw new Error('No tab to fill.');
      const result = await send<FillResult>({ type: 'fill', id: item.id, tabId });
      setNotice(result.filled > 0 ? `Filled ${item.name}.` : (result.refused ?? 'Nothing was filled.'));
    });
  const lock = () =>
    void run(async () => {
      await send({ type: 'lock' });
      await onChange();
    });

  const forSite = items?.filter((item) => item.matchesTab) ?? [];
  const others = items?.filter((item) => !item.matchesTab) ?? [];
  return (
    <section className="vault">
      {tabChecked && (
        <SaveOfferPanel
          tabId={tabId}
          onSaved={(said) => {
            setNotice(said);
            setSaved((count) => count + 1);
          }}
        />
      )}
      <div className="row">
        <label htmlFor="search" className="visually-hidden">
          Search the vault
        </label>
        <input
          id="search"
          type="search"
          placeholder="Search the vault"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          autoFocus
        />
        <button type="button" onClick={lock}>
          Lock
        </button>
      </div>
      <p role="status" className="notice">
        {notice}
      </p>
      {(error || listError) && (
        <p role="alert" className="error">
          {error || listError}
        </p>
      )}
      {items === null ? (
        <p className="muted">Opening your vault…</p>
      ) : (
        <>
          {query === '' && (
            <ItemList title="For this site" items={forSite} empty="No items for this site." onFill={fill} onCopy={copy} />
          )}
          <VirtualItemList
            title={query === '' ? 'All items' : 'Search results'}
            items={query === '' ? others : items}
            empty="No items found."
            onFill={fill}
            onCopy={copy}
          />
        </>
      )}
      <Preferences status={status} onChange={onChange} />
    </section>
  );
}
