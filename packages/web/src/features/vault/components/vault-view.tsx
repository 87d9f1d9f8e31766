import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { buttonPrimary, card } from '@/components/ui/styles';
import { useKeyring } from '@/lib/keyring-context';
import { logInfo } from '@/lib/log';
import { useCopyFeedback } from '../hooks/use-copy-feedback';
import { useEntryActions } from '../hooks/use-entry-actions';
import { useRevealedPasswords } from '../hooks/use-revealed-passwords';
import { useVaultEntries } from '../hooks/use-vault-entries';
import { useVaultListing } from '../hooks/use-vault-listing';
import { revisionMemoryOf } from '../lib/revision-memory';
import { useEditFromAddress } from '../hooks/use-edit-from-address';
import { IntegrityAlert } from '../integrity/integrity-alert';
import { PendingCount } from './pending-sync';
import { SyncRefusedAlert } from '../integrity/sync-refused-alert';
import { vaultIntegrityOf } from '@/lib/vault-integrity-of';
import { filterFromAddress } from '../import/lib/address-filter';
import type { EntryFilter, EntrySort } from '../lib/entry-filter';
import { forgetUsed, noteUsed, readLastUsed, type LastUsedTimes } from '../lib/last-used';
import { markAfterNextPaint, VAULT_PAINTED_MARK } from '../lib/perf-marks';
import { useAppServiceWorker } from '@/lib/service-worker';
import { openPassword } from '@lockit/client-core';
import { parseTotpSeed, totpCode } from '../lib/totp';
import { damagedEntry, type ActionResult, type OpenEntry, type VaultEntry } from '@lockit/client-core';
import { EntryDetailsPane, type DetailsActions } from './entry-details-pane';
import type { RowActions, RowCopyField } from './entry-row';
import { FilterSidebar, filterLabel } from './filter-sidebar';
import { SearchableEntryList } from './searchable-entry-list';
import { VaultDialogs, type OpenDialog } from './vault-dialogs';

export const EMPTY_VAULT_TEXT = 'You haven\'t saved any passwords yet. Click "Add" to get started!';

/** How long a failure message stays unless dismissed or replaced. */
export const MESSAGE_MS = 10_000;

const COPY_WORDS: Record<RowCopyField, string> = { password: 'a password', username: 'a user name', code: 'a one-time code' };
const COPIED_TEXT: Record<RowCopyField, string> = {
  password: 'Password copied to the clipboard.',
  username: 'User name copied to the clipboard.',
  code: 'One-time code copied to the clipboard.',
};

interface VaultViewProps {
  vaultKey: CryptoKey;
  /** The entry list an unlock already fetched, if any. */
  prefetchedEntries?: Promise<unknown[]>;
}

/**
 * The unlocked vault: the filter column, the list (search, count, sort) and the item view,
 * with their dialogs. Every change touches one entry (encrypted alone, then replaced by id,
 * through useEntryActions); the rest of the vault is never decrypted again. A failed change
 * shows a plain message in a polite status region, never a blocking alert.
 */
export function VaultView({ vaultKey, prefetchedEntries }: VaultViewProps) {
  const { state, folders, dispatch, reload, syncRefused } = useVaultEntries(vaultKey, prefetchedEntries);
  const keyring = useKeyring();
  const account = keyring.vault?.username ?? '';

  const markDamaged = useCallback(
    (entry: OpenEntry) => {
      logInfo('Vault', 'an entry failed to decrypt and is shown as damaged.');
      dispatch({
        type: 'saved',
        entry: damagedEntry(entry.id, entry.createdAt, 'undecryptable', { revision: entry.revision, deletedAt: entry.deletedAt }),
      });
    },
    [dispatch],
  );
  const { revealed, toggleReveal, hide } = useRevealedPasswords(vaultKey, markDamaged);
  const actions = useEntryActions(vaultKey, dispatch, { onChanged: hide });
  /** The person took the server's older copy: entries older than this tab saw are no rollback now. */
  const acceptedServerCopy = useCallback(() => {
    revisionMemoryOf(keyring).forget();
    reload();
  }, [keyring, reload]);
  const rowCopies = useCopyFeedback<RowCopyField>();
  const paneCopies = useCopyFeedback<'copied'>();

  const [filter, setFilter] = useState<EntryFilter>(() => filterFromAddress(window.location.search));
  const [sort, setSort] = useState<EntrySort>('name');
  const [lastUsed, setLastUsed] = useState<LastUsedTimes>(() => readLastUsed(account));
  const [selectedId, setSelectedId] = useState<string | null>(null);
  // The entry the list brings into view: a new object per request, so the same entry can be asked for again.
  const [reveal, setReveal] = useState<{ id: string } | null>(null);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [copiedText, setCopiedText] = useState('');

  const entries = state.status === 'loading' ? NO_ENTRIES : state.entries;

  useEffect(() => {
    if (state.status === 'ready') return markAfterNextPaint(VAULT_PAINTED_MARK);
  }, [state.status]);
  useAppServiceWorker(state.status === 'ready');

  useEffect(() => {
    if (message === null) return;
    const timer = setTimeout(() => setMessage(null), MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [message]);

  /** Shows a failed action's message; answers whether it succeeded. */
  const report = useCallback((result: ActionResult) => {
    if (!result.ok) setMessage(result.message);
    return result.ok;
  }, []);

  const used = useCallback((id: string) => setLastUsed((current) => noteUsed(account, id, current)), [account]);

  const { listed, counts, tree, tags, folderNameOf } = useVaultListing(entries, folders, filter, sort, lastUsed);

  const selected = useMemo(() => {
    const entry = selectedId === null ? undefined : entries.find((candidate) => candidate.id === selectedId);
    return entry?.status === 'open' ? entry : null;
  }, [entries, selectedId]);

  // The item view's copied fields, keyed `<entry id>:<field>` so a check never shows on another entry.
  const paneCopied = useMemo(() => {
    const prefix = `${selected?.id ?? ''}:`;
    return new Set([...paneCopies.copied.keys()].filter((key) => key.startsWith(prefix)).map((key) => key.slice(prefix.length)));
  }, [paneCopies.copied, selected]);

  // Each of these keeps its identity across renders (only `actions.conflict` changes).
  const { openSecrets, openDraft, restore, setFavorite, setFiles, save } = actions;

  /** The password, or null when it did not decrypt (the entry is then shown as damaged). */
  const passwordOf = useCallback(
    async (entry: OpenEntry): Promise<string | null> => {
      try {
        return await openPassword(vaultKey, entry);
      } catch {
        hide(entry.id);
        markDamaged(entry);
        return null;
      }
    },
    [vaultKey, hide, markDamaged],
  );

  /** The code of the entry's one-time password now, or null (none, or it did not open). */
  const codeOf = useCallback(
    async (entry: OpenEntry): Promise<string | null> => {
      let seedText: string | null;
      try {
        seedText = (await openSecrets(entry)).totp;
      } catch {
        return null;
      }
      if (seedText === null) return null;
      try {
        return totpCode(parseTotpSeed(seedText), Date.now());
      } catch {
        setMessage('Could not copy the code: the saved secret is not a valid TOTP secret. Edit the entry to fix it.');
        return null;
      }
    },
    [openSecrets],
  );

  const openEdit = useCallback(
    (entry: OpenEntry, generate = false) => {
      openDraft(entry).then(
        (draft) => setDialog({ kind: 'edit', entry, draft, generate }),
        // The entry is shown as damaged by then; there is nothing to edit.
        () => {},
      );
    },
    [openDraft],
  );
  useEditFromAddress(state, openEdit);

  const copyRowField = rowCopies.copy;
  const rowActions = useMemo<RowActions>(
    () => ({
      open: (entry) => setSelectedId(entry.id),
      toggleReveal: (entry, isRevealed) => void toggleReveal(entry, isRevealed),
      copy: (entry, field, revealedPassword) => {
        const text =
          field === 'username' ? entry.username : field === 'code' ? codeOf(entry) : (revealedPassword ?? passwordOf(entry));
        void copyRowField(entry.id, field, text, COPY_WORDS[field]).then((copied) => {
          if (!copied) return;
          used(entry.id);
          setCopiedText(COPIED_TEXT[field]);
        });
      },
      edit: openEdit,
      remove: (entry) => setDialog({ kind: 'delete', entry }),
      restore: (entry) => void restore(entry).then(report),
      purge: (entry) => setDialog({ kind: 'purge', entry }),
    }),
    // Stable callbacks: the rows' props stay equal, so memoised rows do not re-render.
    [toggleReveal, codeOf, passwordOf, copyRowField, used, openEdit, restore, report],
  );

  // Focus goes back where it came from: the row's name after the item view closes, Add after
  // a delete took the row that opened the dialog away.
  const addButton = useRef<HTMLButtonElement>(null);
  const focusAddWhenClosed = useRef(false);
  useEffect(() => {
    if (dialog !== null || !focusAddWhenClosed.current) return;
    focusAddWhenClosed.current = false;
    addButton.current?.focus();
  }, [dialog]);

  const closePane = useCallback(() => {
    const id = selectedId;
    setSelectedId(null);
    if (id === null) return;
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>(`[data-entry-id="${CSS.escape(id)}"] [data-row-focus]`)?.focus(),
    );
  }, [selectedId]);

  const copyPaneField = paneCopies.copy;
  const detailsActions = useMemo<DetailsActions>(
    () => ({
      openSecrets: (entry) => openSecrets(entry).catch(() => null),
      copy: (entry, key, text, what) => {
        void copyPaneField(`${entry.id}:${key}`, 'copied', text, what).then((copied) => {
          if (!copied) return;
          used(entry.id);
          setCopiedText('Copied to the clipboard.');
        });
      },
      used: (entry) => used(entry.id),
      setFavorite: (entry, on) => setFavorite(entry, on).then(report),
      setFiles,
      save: (entry, draft) => save(entry, draft).then(report),
      edit: openEdit,
      remove: (entry) => setDialog({ kind: 'delete', entry }),
      restore: (entry) => void restore(entry).then(report),
      purge: (entry) => setDialog({ kind: 'purge', entry }),
      history: (entry) => setDialog({ kind: 'history', entry }),
      close: closePane,
    }),
    [openSecrets, copyPaneField, used, setFavorite, setFiles, save, report, openEdit, restore, closePane],
  );

  const close = useCallback(() => setDialog(null), []);
  // A new entry may sort anywhere, far below the rows in view: the person sees what they just
  // saved, in the list and opened in the item view, as a click on its row would.
  const added = useCallback((id: string) => {
    setSelectedId(id);
    setReveal({ id });
  }, []);
  const selectFilter = useCallback((next: EntryFilter) => {
    setFilter(next);
    setDrawerOpen(false);
  }, []);
  const closeDrawer = useCallback(() => setDrawerOpen(false), []);
  const newFolder = useCallback(() => {
    setDrawerOpen(false);
    setDialog({ kind: 'folder' });
  }, []);

  const submitForm = async (result: Promise<ActionResult>): Promise<ActionResult> => {
    const outcome = await result;
    if (outcome.ok) setDialog(null);
    return outcome;
  };

  const trash = async (entry: VaultEntry) => {
    const result = await actions.trash(entry);
    if (result.ok) {
      hide(entry.id);
      if (selectedId === entry.id) setSelectedId(null);
      focusAddWhenClosed.current = true;
    } else {
      setMessage(result.message);
    }
    setDialog(null);
  };

  const purge = async (entry: VaultEntry) => {
    const result = await actions.purge(entry);
    if (result.ok) {
      if (selectedId === entry.id) setSelectedId(null);
      setLastUsed((current) => forgetUsed(account, entry.id, current));
      focusAddWhenClosed.current = true;
    } else {
      setMessage(result.message);
    }
    setDialog(null);
  };

  const heading = filterLabel(filter, folderNameOf);
  const emptyFilterText =
    state.status !== 'ready' || entries.length === 0 ? null : filter.kind === 'trash' ? 'Trash is empty.' : 'No entries here.';

  return (
    <div className="mt-6 flex flex-col gap-4">
      <IntegrityAlert integrity={vaultIntegrityOf(keyring)} onAccepted={acceptedServerCopy} />
      <SyncRefusedAlert report={syncRefused} integrity={vaultIntegrityOf(keyring)} />
      <PendingCount />
      {message !== null && (
        <div
          role="status"
          className="flex items-start gap-3 rounded-lg border border-amber-600/60 bg-amber-950/60 px-4 py-3 text-sm text-amber-50"
        >
          <p className="flex-1">{message}</p>
          <button
            type="button"
            className="rounded px-1 text-amber-200 hover:text-white"
            aria-label="Dismiss message"
            onClick={() => setMessage(null)}
          >
            ×
          </button>
        </div>
      )}
      <div
        className={`grid items-start gap-6 md:grid-cols-[13rem_minmax(0,1fr)] ${selected ? 'xl:grid-cols-[13rem_minmax(0,1fr)_22rem]' : ''}`}
      >
        <FilterSidebar
          filter={filter}
          onSelect={selectFilter}
          counts={counts}
          folders={tree}
          tags={tags}
          onNewFolder={newFolder}
          drawerOpen={drawerOpen}
          onCloseDrawer={closeDrawer}
          openFolders={folders}
          onRenameFolder={actions.renameFolder}
          onDeleteFolder={actions.deleteFolder}
        />
        <SearchableEntryList
          entries={listed}
          heading={heading}
          sort={sort}
          onSortChange={setSort}
          beforeHeading={
            <button
              type="button"
              className="row-icon rounded-lg border border-slate-700 p-2 text-slate-200 hover:bg-slate-800 md:hidden"
              data-icon="menu"
              aria-label="Filters"
              aria-expanded={drawerOpen}
              aria-controls="vault-filters"
              onClick={() => setDrawerOpen(true)}
            />
          }
          besideSearch={
            <button ref={addButton} type="button" className={buttonPrimary} onClick={() => setDialog({ kind: 'add' })}>
              Add
            </button>
          }
          notice={
            <>
              {state.status === 'loading' && (
                <p role="status" className="py-12 text-center text-slate-300">
                  Decrypting your vault…
                </p>
              )}
              {state.status === 'ready' && entries.length === 0 && (
                <p className={`${card} text-center text-slate-300`}>{EMPTY_VAULT_TEXT}</p>
              )}
            </>
          }
          emptyFilterText={emptyFilterText}
          revealed={revealed}
          copied={rowCopies.copied}
          besideItemView={selected !== null}
          reveal={reveal}
          actions={rowActions}
        />
        {selected && (
          <aside
            aria-label="Entry details"
            className="fixed inset-0 z-50 overflow-y-auto bg-slate-950 p-4 sm:p-6 md:left-auto md:w-[28rem] md:border-l md:border-slate-800 md:shadow-2xl xl:sticky xl:top-20 xl:z-auto xl:max-h-[calc(100vh-6rem)] xl:w-auto xl:rounded-2xl xl:border xl:bg-slate-900/80 xl:shadow-xl"
          >
            <EntryDetailsPane key={selected.id} entry={selected} folders={folders} copied={paneCopied} actions={detailsActions} />
          </aside>
        )}
      </div>
      <p role="status" className="sr-only">
        {rowCopies.copied.size > 0 || paneCopies.copied.size > 0 ? copiedText : ''}
      </p>

      <VaultDialogs
        dialog={dialog}
        folders={folders}
        actions={actions}
        onSubmit={submitForm}
        onTrash={trash}
        onPurge={purge}
        onAdded={added}
        onFolderAdded={(result) => {
          if (result.ok) setDialog(null);
          return report(result);
        }}
        onClose={close}
      />
    </div>
  );
}

const NO_ENTRIES: VaultEntry[] = [];
