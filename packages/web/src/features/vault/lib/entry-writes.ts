import type { EntryWire } from '@lockit/contract';
import type { Dispatch } from 'react';
import { api } from '@/lib/http';
import { logFailure, logInfo } from '@/lib/log';
import { pendingWriteStore } from '@/lib/offline/offline-copies';
import { refreshPending } from '@/lib/offline/pending-state';
import type { VaultEntriesAction } from '../hooks/use-vault-entries';
import { failureMessage } from './action-messages';
import {
  damagedEntry,
  EntryDraftError,
  EntryWriteQueue,
  EntryWrites as CoreEntryWrites,
  openEntry,
  pendingEntryView,
  QueuedEntryWrites,
  type AccountRef,
  type PendingWrite,
  type EntryDraft,
  type OpenEntry,
  type RevisionMemory,
  type VaultEntry,
  type VaultIntegrity,
} from '@lockit/client-core';

export type WriteOutcome = { ok: true; entry: VaultEntry } | { ok: false; message: string } | { conflict: EntryWire };

export interface WriteWords {
  /** For the console (the spec's logging): e.g. the dialog's title. */
  context: string;
  /** For the person: "Could not <what>: …". */
  what: string;
  keptInForm?: boolean;
}

export const SAVE_WORDS: WriteWords = { context: 'Edit Password', what: 'save', keptInForm: true };

export interface EntryWritesDeps {
  vaultKey: CryptoKey;
  /** This device's ref of the account: whose queue a write made offline waits in (null: none is kept). */
  account: AccountRef | null;
  dispatch: Dispatch<VaultEntriesAction>;
  revisions: RevisionMemory;
  /** This tab's integrity queue; null where the tab tracks no vault state. */
  integrity: VaultIntegrity | null;
  /** Called when an entry's content changed or went. */
  changed: (id: string) => void;
}

export type EntryWrites = ReturnType<typeof createEntryWrites>;

/**
 * The screen's side of the client core's entry writes (sealing, revisions, the vault state,
 * conflicts are the core's): each answer goes into useVaultEntries' state, a failure becomes a
 * sentence, and a 409 comes back as `{ conflict }` for the caller to settle. With the server
 * unreachable, a write waits sealed in the core's queue (QueuedEntryWrites, IndexedDB here) and
 * the screen shows it as it will be, marked as waiting.
 */
export function createEntryWrites({ vaultKey, account, dispatch, revisions, integrity, changed }: EntryWritesDeps) {
  const core = new CoreEntryWrites({ api, vaultKey, integrity });
  // No account bound, or no IndexedDB (some private modes): writes only go online, as before.
  const queued =
    account !== null && typeof indexedDB !== 'undefined'
      ? new QueuedEntryWrites(core, new EntryWriteQueue({ store: pendingWriteStore, account }), vaultKey)
      : null;

  /** A write that waits in the queue: shown as it will be, and counted as waiting. */
  const showQueued = async (write: PendingWrite, base: VaultEntry | undefined): Promise<VaultEntry | null> => {
    if (account !== null) void refreshPending(account);
    const view = await pendingEntryView(vaultKey, write, base);
    if (view) {
      changed(view.id);
      dispatch({ type: 'saved', entry: view });
    }
    return view;
  };

  const markDamaged = (entry: OpenEntry) => {
    logInfo('Vault', 'an entry failed to decrypt and is shown as damaged.');
    changed(entry.id);
    dispatch({
      type: 'saved',
      entry: damagedEntry(entry.id, entry.createdAt, 'undecryptable', { revision: entry.revision, deletedAt: entry.deletedAt }),
    });
  };

  /** An entry gone from the server (purged, or found gone): it goes from the list too. */
  const removed = (id: string) => {
    changed(id);
    dispatch({ type: 'removed', id });
  };

  /** Opens an answer and puts it in the state. */
  const settleWire = async (wire: EntryWire): Promise<VaultEntry | null> => {
    const entry = await openEntry(vaultKey, wire, { revisions });
    await integrity?.noteEntry(wire, entry?.status === 'open' ? entry.serviceName : undefined);
    if (entry) {
      changed(entry.id);
      dispatch({ type: 'saved', entry });
    }
    return entry;
  };

  /** A failed write as a sentence; what reached the server is logged (a draft that cannot be sealed sent nothing). */
  const failed = (error: unknown, words: WriteWords): { ok: false; message: string } => {
    if (!(error instanceof EntryDraftError)) logFailure(words.context, error);
    return { ok: false, message: failureMessage(words.what, error, words) };
  };

  const writeDraft = async (
    id: string,
    revision: number,
    draft: EntryDraft,
    words: WriteWords,
    base?: VaultEntry,
  ): Promise<WriteOutcome> => {
    let result;
    try {
      result = await (queued ?? core).update(id, revision, draft);
    } catch (error) {
      return failed(error, words);
    }
    if (result.kind === 'queued') return queuedOutcome(await showQueued(result.write, base), words);
    if (result.kind === 'conflict') return { conflict: result.current };
    const entry = await settleWire(result.wire);
    return entry ? { ok: true, entry } : { ok: false, message: failureMessage(words.what, null, words) };
  };

  const trashAt = async (id: string, revision: number, base?: VaultEntry): Promise<WriteOutcome> => {
    let result;
    try {
      result = await (queued ?? core).trash(id, revision);
    } catch (error) {
      return failed(error, { context: 'Deleting a password', what: 'move it to Trash' });
    }
    if (result.kind === 'queued') return queuedOutcome(await showQueued(result.write, base), { what: 'move it to Trash' });
    if (result.kind === 'conflict') return { conflict: result.current };
    if (result.kind === 'gone') {
      // It is already gone from the server, so it goes from the list too.
      logFailure('Deleting a password', result.error);
      removed(id);
      return { ok: true, entry: damagedEntry(id) };
    }
    const entry = await settleWire(result.wire);
    return entry ? { ok: true, entry } : { ok: false, message: failureMessage('move it to Trash', null) };
  };

  return { core, queued, showQueued, markDamaged, removed, settleWire, writeDraft, trashAt, failed };
}

/** A queued write is done as far as the screen goes; a view that did not open says so. */
function queuedOutcome(view: VaultEntry | null, words: Pick<WriteWords, 'what' | 'keptInForm'>): WriteOutcome {
  return view ? { ok: true, entry: view } : { ok: false, message: failureMessage(words.what, null, words) };
}
