import { useLayoutEffect, useMemo, useRef, useState, type Dispatch } from 'react';
import { useKeyring } from '@/lib/keyring-context';
import { vaultIntegrityOf } from '@/lib/vault-integrity-of';
import { createEntryActions } from '../lib/entry-actions';
import { createConflictFlow } from '../lib/entry-conflict-flow';
import { createEntryWrites } from '../lib/entry-writes';
import { createFolderActions } from '../lib/folder-actions';
import { revisionMemoryOf } from '../lib/revision-memory';
import type { EntryActions, EntryConflict } from '../lib/entry-action-types';
import type { VaultEntriesAction } from './use-vault-entries';
import { useReplayQueuedWrites } from './use-replay-queued-writes';

/**
 * Every change of the vault the screen makes: each write names the revision it is based on,
 * dispatches its answer into useVaultEntries' state, and resolves { ok: true } or
 * { ok: false, message } (a plain sentence for the screen to show, nothing changed here).
 * A write that meets a newer version (409) opens `conflict` and resolves once it is settled.
 *
 * `onChanged(id)` is called when an entry's content changed or went (e.g. so the screen hides
 * a password it had revealed).
 */
export function useEntryActions(
  vaultKey: CryptoKey,
  dispatch: Dispatch<VaultEntriesAction>,
  { onChanged }: { onChanged?: (id: string) => void } = {},
): EntryActions & { conflict: EntryConflict | null } {
  const [conflict, setConflict] = useState<EntryConflict | null>(null);
  const keyring = useKeyring();
  const revisions = revisionMemoryOf(keyring);
  // Every write that changes the live set goes through this tab's integrity queue (decision 0053).
  const integrity = vaultIntegrityOf(keyring);
  const account = keyring.vault?.vaultKey === vaultKey ? keyring.vault.account : null;
  const changedRef = useRef(onChanged);
  useLayoutEffect(() => {
    changedRef.current = onChanged;
  }, [onChanged]);

  const actions = useMemo(() => {
    const changed = (id: string) => changedRef.current?.(id);
    // `changed` reads the ref only when a write settles, never while rendering.
    // eslint-disable-next-line react-hooks/refs
    const writes = createEntryWrites({ vaultKey, account, dispatch, revisions, integrity, changed });
    const conflicts = createConflictFlow({ vaultKey, writes, setConflict });
    return {
      writes,
      conflicts,
      ...createEntryActions({ vaultKey, writes, conflicts }),
      ...createFolderActions({ vaultKey, dispatch, integrity }),
    };
  }, [vaultKey, account, dispatch, revisions, integrity]);
  // Writes queued offline are sent when the server answers again.
  useReplayQueuedWrites(actions.writes, actions.conflicts);

  return useMemo(() => {
    const { writes: _writes, conflicts: _conflicts, ...entryActions } = actions;
    return { ...entryActions, conflict };
  }, [actions, conflict]);
}
