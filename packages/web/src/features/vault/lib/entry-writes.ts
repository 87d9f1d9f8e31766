import type { EntryWire } from '@lockit/contract';
import type { Dispatch } from 'react';
import { api } from '@/lib/http';
import { logFailure, logInfo } from '@/lib/log';
import type { VaultEntriesAction } from '../hooks/use-vault-entries';
import { failureMessage } from './action-messages';
import {
  damagedEntry,
  EntryDraftError,
  EntryWrites as CoreEntryWrites,
  openEntry,
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
 * sentence, and a 409 comes back as `{ conflict }` for the caller to settle.
 */
export function createEntryWrites({ vaultKey, dispatch, revisions, integrity, changed }: EntryWritesDeps) {
  const core = new CoreEntryWrites({ api, vaultKey, integrity });

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

  const writeDraft = async (id: string, revision: number, draft: EntryDraft, words: WriteWords): Promise<WriteOutcome> => {
    let result;
    try {
      result = await core.update(id, revision, draft);
    } catch (error) {
      return failed(error, words);
    }
    if (result.kind === 'conflict') return { conflict: result.current };
    const entry = await settleWire(result.wire);
    return entry ? { ok: true, entry } : { ok: false, message: failureMessage(words.what, null, words) };
  };

  const trashAt = async (id: string, revision: number): Promise<WriteOutcome> => {
    let result;
    try {
      result = await core.trash(id, revision);
    } catch (error) {
      return failed(error, { context: 'Deleting a password', what: 'move it to Trash' });
    }
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

  return { core, markDamaged, removed, settleWire, writeDraft, trashAt, failed };
}
