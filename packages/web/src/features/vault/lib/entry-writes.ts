import type { EntryWire } from '@lockit/contract';
import type { Dispatch } from 'react';
import { ApiError } from '@/lib/api-errors';
import { logFailure, logInfo } from '@/lib/log';
import { deleteEntry } from '../api/delete-entry';
import { entryConflictOf } from '../api/entry-conflict';
import { updateEntry } from '../api/update-entry';
import type { VaultEntriesAction } from '../hooks/use-vault-entries';
import { writtenEntryMember } from '@lockit/client-core';
import type { MemberChange, VaultIntegrity } from '../integrity/vault-integrity';
import { failureMessage } from './action-messages';
import { openEntry } from '@lockit/client-core';
import type { RevisionMemory } from '@lockit/client-core';
import { sealEntry, toUpdateRequest } from '@lockit/client-core';
import { damagedEntry, type EntryDraft, type OpenEntry, type VaultEntry } from '@lockit/client-core';

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
 * The writes of one entry that the actions and the conflict flow share: each puts its answer
 * into useVaultEntries' state, and a 409 comes back as `{ conflict }` for the caller to settle.
 */
export function createEntryWrites({ vaultKey, dispatch, revisions, integrity, changed }: EntryWritesDeps) {
  /** Sends a write with the vault state after it (none where the tab tracks no state). */
  const write = <T>(change: () => MemberChange, send: (state: string | undefined) => Promise<T>): Promise<T> =>
    integrity ? integrity.write(change, send) : send(undefined);

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

  const writeDraft = async (id: string, revision: number, draft: EntryDraft, words: WriteWords): Promise<WriteOutcome> => {
    let request;
    let member;
    try {
      const sealed = await sealEntry(vaultKey, id, draft);
      request = toUpdateRequest(sealed, revision);
      member = writtenEntryMember(sealed, revision + 1);
    } catch (error) {
      return { ok: false, message: failureMessage(words.what, error, words) };
    }
    try {
      const replaceEntries = [{ member, name: draft.serviceName }];
      const entry = await settleWire(
        await write(
          () => ({ replaceEntries }),
          (state) => updateEntry(id, request, state),
        ),
      );
      return entry ? { ok: true, entry } : { ok: false, message: failureMessage(words.what, null, words) };
    } catch (error) {
      const current = entryConflictOf(error);
      if (current) return { conflict: current };
      logFailure(words.context, error);
      return { ok: false, message: failureMessage(words.what, error, words) };
    }
  };

  const trashAt = async (id: string, revision: number): Promise<WriteOutcome> => {
    // One time for every try: it is sealed into the state and sent beside it.
    const trashedAt = Date.now();
    try {
      const entry = await settleWire(
        await write(
          () => ({ trashEntries: [{ id, trashedAt }] }),
          (state) => deleteEntry(id, revision, state, trashedAt),
        ),
      );
      return entry ? { ok: true, entry } : { ok: false, message: failureMessage('move it to Trash', null) };
    } catch (error) {
      const current = entryConflictOf(error);
      if (current) return { conflict: current };
      logFailure('Deleting a password', error);
      // 404: it is already gone from the server, so it goes from the list too.
      if (error instanceof ApiError && error.status === 404) {
        removed(id);
        return { ok: true, entry: damagedEntry(id) };
      }
      return { ok: false, message: failureMessage('move it to Trash', error) };
    }
  };

  return { write, markDamaged, removed, settleWire, writeDraft, trashAt };
}
