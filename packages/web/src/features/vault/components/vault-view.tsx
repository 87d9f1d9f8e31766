import { newEntryId } from '@lockit/crypto';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { buttonPrimary, card } from '@/components/ui/styles';
import { ApiError } from '@/lib/api-errors';
import { useKeyring } from '@/lib/keyring-context';
import { logFailure, logInfo } from '@/lib/log';
import { addEntry } from '../api/add-entry';
import { deleteEntry } from '../api/delete-entry';
import { updateEntry } from '../api/update-entry';
import { useRevealedPasswords } from '../hooks/use-revealed-passwords';
import { useVaultItems } from '../hooks/use-vault-items';
import { openEntry } from '../lib/open-entries';
import { markAfterNextPaint, VAULT_PAINTED_MARK } from '../lib/perf-marks';
import { revisionMemoryOf } from '../lib/revision-memory';
import { openDraft, sealEntry, toAddRequest, type EntryDraft } from '../lib/seal-entry';
import { compareItems, damagedItem, type OpenItem, type VaultItem } from '../lib/vault-item';
import { DeleteEntryDialog } from './delete-entry-dialog';
import { EntryFormDialog, EMPTY_DRAFT } from './entry-form-dialog';
import type { RowActions } from './entry-row';
import { SearchableEntryList } from './searchable-entry-list';

type OpenDialog =
  | { kind: 'add' }
  | { kind: 'edit'; item: OpenItem; draft: EntryDraft }
  | { kind: 'delete'; item: VaultItem }
  | null;

export const EMPTY_VAULT_TEXT = 'You haven\'t saved any passwords yet. Click "Add" to get started!';

interface VaultViewProps {
  vaultKey: CryptoKey;
  /** The entry list an unlock already fetched, if any. */
  prefetchedEntries?: Promise<unknown[]>;
}

/**
 * The unlocked vault: search, Add, the list and its modals. Every change touches one entry
 * (encrypted alone, then replaced by id); the rest of the vault is never decrypted again.
 */
export function VaultView({ vaultKey, prefetchedEntries }: VaultViewProps) {
  const { state, dispatch } = useVaultItems(vaultKey, prefetchedEntries);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const revisions = revisionMemoryOf(useKeyring());

  const markDamaged = useCallback(
    (item: VaultItem) => {
      logInfo('Vault', 'an entry failed to decrypt and is shown as damaged.');
      dispatch({ type: 'saved', item: damagedItem(item.id, item.createdAt) });
    },
    [dispatch],
  );
  const { revealed, copied, toggleReveal, copy, hide } = useRevealedPasswords(vaultKey, markDamaged);

  const items = state.status === 'loading' ? NO_ITEMS : state.items;
  const sorted = useMemo(() => [...items].sort(compareItems), [items]);

  useEffect(() => {
    if (state.status === 'ready') return markAfterNextPaint(VAULT_PAINTED_MARK);
  }, [state.status]);

  const actions = useMemo<RowActions>(
    () => ({
      toggleReveal: (item, isRevealed) => void toggleReveal(item, isRevealed),
      copy: (item, password) => void copy(item, password),
      edit: (item) => {
        openDraft(vaultKey, item).then(
          (draft) => setDialog({ kind: 'edit', item, draft }),
          () => markDamaged(item),
        );
      },
      remove: (item) => setDialog({ kind: 'delete', item }),
    }),
    // Stable callbacks: the rows' props stay equal, so memoised rows do not re-render.
    [toggleReveal, copy, vaultKey, markDamaged],
  );

  const close = useCallback(() => setDialog(null), []);

  // After a delete the button that opened the dialog is gone with its row: focus goes to Add.
  const addButton = useRef<HTMLButtonElement>(null);
  const focusAddWhenClosed = useRef(false);
  useEffect(() => {
    if (dialog !== null || !focusAddWhenClosed.current) return;
    focusAddWhenClosed.current = false;
    addButton.current?.focus();
  }, [dialog]);

  const add = async (draft: EntryDraft) => {
    const sealed = await sealEntry(vaultKey, newEntryId(), draft);
    const saved = await openEntry(vaultKey, await addEntry(toAddRequest(sealed)), revisions);
    if (saved) dispatch({ type: 'saved', item: saved });
    setDialog(null);
  };

  const save = async (item: OpenItem, draft: EntryDraft) => {
    const sealed = await sealEntry(vaultKey, item.id, draft);
    const saved = await openEntry(vaultKey, await updateEntry(item.id, { ...sealed, revision: item.revision }), revisions);
    hide(item.id);
    if (saved) dispatch({ type: 'saved', item: saved });
    setDialog(null);
  };

  const remove = async (item: VaultItem) => {
    try {
      await deleteEntry(item.id);
    } catch (error) {
      logFailure('Deleting a password', error);
      // 404: it is already gone from the server, so it goes from the list too.
      if (!(error instanceof ApiError && error.status === 404)) {
        setDialog(null);
        return;
      }
    }
    hide(item.id);
    dispatch({ type: 'removed', id: item.id });
    focusAddWhenClosed.current = true;
    setDialog(null);
  };

  return (
    <div className="mt-6 flex flex-col gap-4">
      <SearchableEntryList
        items={sorted}
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
            {state.status === 'ready' && items.length === 0 && (
              <p className={`${card} text-center text-slate-300`}>{EMPTY_VAULT_TEXT}</p>
            )}
          </>
        }
        revealed={revealed}
        copied={copied}
        actions={actions}
      />
      <p role="status" className="sr-only">
        {copied.size > 0 ? 'Password copied to the clipboard.' : ''}
      </p>

      {dialog?.kind === 'add' && (
        <EntryFormDialog title="Add New Password" submitLabel="Add" initial={EMPTY_DRAFT} onSubmit={add} onClose={close} />
      )}
      {dialog?.kind === 'edit' && (
        <EntryFormDialog
          title="Edit Password"
          submitLabel="Save"
          initial={dialog.draft}
          onSubmit={(draft) => save(dialog.item, draft)}
          onClose={close}
        />
      )}
      {dialog?.kind === 'delete' && <DeleteEntryDialog onConfirm={() => remove(dialog.item)} onClose={close} />}
    </div>
  );
}

const NO_ITEMS: VaultItem[] = [];
