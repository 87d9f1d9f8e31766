import { useEffect, useState } from 'react';
import type { FillResult, ItemSummary, Status } from '../shared/messages';
import { MATCH_RULES, type MatchRule } from '../shared/url-match';
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

  useEffect(() => {
    void targetTabId().then((id) => {
      setTabId(id);
      setTabChecked(true);
    });
  }, []);
  useEffect(() => {
    if (!tabChecked) return;
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

  const copy = (item: ItemSummary, field: 'username' | 'password' | 'totp', label: string) =>
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
          <ItemList
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

interface ListProps {
  title: string;
  items: ItemSummary[];
  empty: string;
  onFill: (item: ItemSummary) => void;
  onCopy: (item: ItemSummary, field: 'username' | 'password' | 'totp', label: string) => void;
}

function ItemList({ title, items, empty, onFill, onCopy }: ListProps) {
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      {items.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="items">
          {items.map((item) => (
            <li key={item.id} className="item">
              <div className="item-text">
                <span className="item-name">{item.name}</span>
                <span className="item-user">{item.username}</span>
              </div>
              <div className="item-actions">
                {item.canFill && (
                  <button type="button" aria-label={`Fill ${item.name}`} onClick={() => onFill(item)}>
                    Fill
                  </button>
                )}
                <button
                  type="button"
                  aria-label={`Copy user name of ${item.name}`}
                  onClick={() => onCopy(item, 'username', 'User name')}
                >
                  User
                </button>
                <button
                  type="button"
                  aria-label={`Copy password of ${item.name}`}
                  onClick={() => onCopy(item, 'password', 'Password')}
                >
                  Pass
                </button>
                {item.hasTotp && (
                  <button type="button" aria-label={`Copy code of ${item.name}`} onClick={() => onCopy(item, 'totp', 'Code')}>
                    Code
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Preferences({ status, onChange }: Props) {
  const [minutes, setMinutes] = useState(String(status.idleMinutes));
  const [rule, setRule] = useState<MatchRule>(status.matchRule);
  const { error, run } = useAction();
  const save = () =>
    void run(async () => {
      await send({ type: 'settings', idleMinutes: Number(minutes), matchRule: rule });
      await onChange();
    });
  return (
    <details className="preferences">
      <summary>Preferences</summary>
      <label htmlFor="idle">Lock after idle (minutes)</label>
      <input id="idle" type="number" min={1} max={1440} value={minutes} onChange={(e) => setMinutes(e.target.value)} />
      <label htmlFor="rule">Match sites by</label>
      <select id="rule" value={rule} onChange={(e) => setRule(e.target.value as MatchRule)}>
        {MATCH_RULES.map((name) => (
          <option key={name} value={name}>
            {RULE_LABELS[name]}
          </option>
        ))}
      </select>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <button type="button" onClick={save}>
        Save preferences
      </button>
    </details>
  );
}

const RULE_LABELS: Record<MatchRule, string> = {
  'base-domain': 'Base domain',
  host: 'Host and port',
  'starts-with': 'Starts with (same origin)',
  exact: 'Exact address',
  regex: 'Regular expression',
  never: 'Never',
};
