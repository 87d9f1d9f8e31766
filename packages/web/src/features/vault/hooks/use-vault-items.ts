import { useEffect, useReducer } from 'react';
import { listEntries } from '@/api/list-entries';
import { useKeyring } from '@/lib/keyring-context';
import { logFailure } from '@/lib/log';
import { openEntries } from '../lib/open-entries';
import { mark, VAULT_DECRYPTED_MARK, VAULT_LOAD_START_MARK } from '../lib/perf-marks';
import { revisionMemoryOf } from '../lib/revision-memory';
import type { VaultItem } from '../lib/vault-item';

export type VaultItemsState =
  /** `added`: entries saved before the list arrived, kept until it does. */
  | { status: 'loading'; added: VaultItem[] }
  /** The fetch failed: only logged (spec); the list stays empty. */
  | { status: 'failed'; items: VaultItem[] }
  | { status: 'ready'; items: VaultItem[] };

export type VaultItemsAction =
  | { type: 'loaded'; items: VaultItem[] }
  | { type: 'failed' }
  /** Add: appended, or replacing an entry with the same id. */
  | { type: 'saved'; item: VaultItem }
  | { type: 'removed'; id: string };

/** Every change touches one entry by id; nothing is decrypted again. */
function reducer(state: VaultItemsState, action: VaultItemsAction): VaultItemsState {
  switch (action.type) {
    case 'loaded': {
      if (state.status !== 'loading' || state.added.length === 0) return { status: 'ready', items: action.items };
      const listed = new Set(action.items.map((item) => item.id));
      return { status: 'ready', items: [...action.items, ...state.added.filter((item) => !listed.has(item.id))] };
    }
    case 'failed':
      return { status: 'failed', items: [] };
    case 'saved': {
      if (state.status === 'loading') return { ...state, added: [...state.added, action.item] };
      const index = state.items.findIndex((item) => item.id === action.item.id);
      const items = index === -1 ? [...state.items, action.item] : state.items.with(index, action.item);
      return { ...state, items };
    }
    case 'removed':
      if (state.status === 'loading') return state;
      return { ...state, items: state.items.filter((item) => item.id !== action.id) };
  }
}

/**
 * The decrypted list of this vault: fetched (or taken from the fetch an unlock or the sign-in
 * started) and decrypted once per vault key (in slices), then changed entry by entry. The decrypted data
 * lives in this component state only, so it is dropped as soon as the vault locks and the
 * screen unmounts.
 */
export function useVaultItems(vaultKey: CryptoKey, prefetchedEntries?: Promise<unknown[]>) {
  const [state, dispatch] = useReducer(reducer, { status: 'loading', added: [] });
  const keyring = useKeyring();
  const revisions = revisionMemoryOf(keyring);

  useEffect(() => {
    const controller = new AbortController();
    const load = async () => {
      mark(VAULT_LOAD_START_MARK);
      try {
        const raw = await (prefetchedEntries ?? keyring.takePrefetchedList(vaultKey) ?? listEntries());
        const items = await openEntries(vaultKey, raw, { signal: controller.signal, revisions });
        mark(VAULT_DECRYPTED_MARK);
        dispatch({ type: 'loaded', items });
      } catch (error) {
        if (controller.signal.aborted) return;
        logFailure('Loading the vault', error);
        dispatch({ type: 'failed' });
      }
    };
    void load();
    return () => controller.abort();
  }, [vaultKey, prefetchedEntries, keyring, revisions]);

  return { state, dispatch };
}
