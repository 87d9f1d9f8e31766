import type { EntryWire } from '@lockit/contract';
import { newEntryId } from '@lockit/crypto';
import { useLayoutEffect, useMemo, useRef, useState, type Dispatch } from 'react';
import { ApiError } from '@/lib/api-errors';
import { useKeyring } from '@/lib/keyring-context';
import { logFailure, logInfo } from '@/lib/log';
import { writtenEntryMember, writtenFolderMember } from '../integrity/entry-members';
import { vaultIntegrityOf } from '../integrity/vault-integrity-of';
import type { MemberChange } from '../integrity/vault-integrity';
import { addEntry } from '../api/add-entry';
import { addFolder as sendAddFolder } from '../api/add-folder';
import { deleteEntry } from '../api/delete-entry';
import { deleteFolder as sendDeleteFolder } from '../api/delete-folder';
import { entryConflictOf, folderConflictOf } from '../api/entry-conflict';
import { getEntryHistory } from '../api/get-entry-history';
import { purgeEntry } from '../api/purge-entry';
import { restoreEntry } from '../api/restore-entry';
import { updateEntry } from '../api/update-entry';
import { updateFolder } from '../api/update-folder';
import {
  CHANGED_ELSEWHERE,
  CURRENT_DAMAGED,
  failureMessage,
  KEPT_NEWER_VERSION,
  NOT_SAVED_AFTER_CONFLICT,
} from '../lib/action-messages';
import { changedParts } from '../lib/draft-diff';
import { openEntry } from '../lib/open-entries';
import { revisionMemoryOf } from '../lib/revision-memory';
import {
  openDraft as openEntryDraft,
  openSecrets as openEntrySecrets,
  openVersionDraft,
  sealEntry,
  toAddRequest,
  toUpdateRequest,
} from '../lib/seal-entry';
import { checkFolderName, openFolder, sealFolderName } from '../lib/seal-folder';
import {
  DAMAGED_MESSAGE,
  damagedEntry,
  type ActionResult,
  type EntryDraft,
  type EntrySecrets,
  type OpenEntry,
  type OpenFolder,
  type VaultEntry,
} from '../lib/vault-entry';
import type { VaultEntriesAction } from './use-vault-entries';

/**
 * How a conflict is settled.
 * - mine: save my version on top of theirs (theirs then lands in history on the server);
 * - theirs: keep theirs (my version is saved into history first, see `resolve`);
 * - merge: save `draft`, picked field by field from both;
 * - cancel: do nothing now (the edit form keeps what was typed).
 * For a delete that met a newer version, 'mine' moves it to Trash anyway, 'theirs' and
 * 'cancel' keep it.
 */
export type ConflictChoice = { kind: 'mine' } | { kind: 'theirs' } | { kind: 'merge'; draft: EntryDraft } | { kind: 'cancel' };

/** A write that met a newer version saved elsewhere (409): both sides, for ConflictDialog. */
export interface EntryConflict {
  /** 'save': an edit (or a restored version) met a newer version; 'delete': a move to Trash did. */
  kind: 'save' | 'delete';
  /** The person's version; null for a delete. */
  mine: EntryDraft | null;
  /** The version saved elsewhere, as it is now on the server, opened. */
  theirs: OpenEntry;
  theirsDraft: EntryDraft;
  /**
   * Carries out a choice. Resolves { ok: false, message } when that failed (the dialog stays
   * open and shows it); on success the conflict is gone, and the write that met it resolves.
   */
  resolve: (choice: ConflictChoice) => Promise<ActionResult>;
}

/** One earlier version of an entry, opened; `draft` is null when it does not decrypt. */
export interface OpenVersion {
  revision: number;
  /** When this version was saved, and when a later write replaced it. */
  savedAt: string;
  replacedAt: string;
  draft: EntryDraft | null;
}

export type HistoryResult = { ok: true; versions: OpenVersion[] } | { ok: false; message: string };
export type FolderResult = { ok: true; folder: OpenFolder } | { ok: false; message: string };

export interface EntryActions {
  add(draft: EntryDraft): Promise<ActionResult>;
  save(entry: OpenEntry, draft: EntryDraft): Promise<ActionResult>;
  /** The spec's delete: to Trash. A 404 (already gone) removes it here too. */
  trash(entry: VaultEntry): Promise<ActionResult>;
  restore(entry: VaultEntry): Promise<ActionResult>;
  /** For good: a trashed entry and its history. */
  purge(entry: VaultEntry): Promise<ActionResult>;
  setFavorite(entry: OpenEntry, on: boolean): Promise<ActionResult>;
  /** Rejects (and shows the entry as damaged) when a secret does not open. */
  openSecrets(entry: OpenEntry): Promise<EntrySecrets>;
  /** The whole draft for Edit; rejects (and shows the entry as damaged) when it does not open. */
  openDraft(entry: OpenEntry): Promise<EntryDraft>;
  /** The entry's earlier versions, newest first; fetched only when asked. */
  history(entry: OpenEntry): Promise<HistoryResult>;
  /** A normal save of that version's content on the current revision. */
  restoreVersion(entry: OpenEntry, version: OpenVersion): Promise<ActionResult>;
  addFolder(name: string): Promise<FolderResult>;
  renameFolder(folder: OpenFolder, name: string): Promise<FolderResult>;
  /** Entries keep naming the folder; they show as in no folder. */
  deleteFolder(folder: OpenFolder): Promise<ActionResult>;
}

type WriteOutcome = { ok: true; entry: VaultEntry } | { ok: false; message: string } | { conflict: EntryWire };

interface WriteWords {
  /** For the console (the spec's logging): e.g. the dialog's title. */
  context: string;
  /** For the person: "Could not <what>: …". */
  what: string;
  keptInForm?: boolean;
}

const SAVE_WORDS: WriteWords = { context: 'Edit Password', what: 'save', keptInForm: true };

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
  const changedRef = useRef(onChanged);
  useLayoutEffect(() => {
    changedRef.current = onChanged;
  }, [onChanged]);

  const actions = useMemo<EntryActions>(() => {
    const changed = (id: string) => changedRef.current?.(id);
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
      try {
        const entry = await settleWire(
          await write(
            () => ({ removeEntries: [id] }),
            (state) => deleteEntry(id, revision, state),
          ),
        );
        return entry ? { ok: true, entry } : { ok: false, message: failureMessage('move it to Trash', null) };
      } catch (error) {
        const current = entryConflictOf(error);
        if (current) return { conflict: current };
        logFailure('Deleting a password', error);
        // 404: it is already gone from the server, so it goes from the list too.
        if (error instanceof ApiError && error.status === 404) {
          changed(id);
          dispatch({ type: 'removed', id });
          return { ok: true, entry: damagedEntry(id) };
        }
        return { ok: false, message: failureMessage('move it to Trash', error) };
      }
    };

    /**
     * Shows a conflict between `mine` and the current version, until it is settled; then
     * calls `settle` with what the write that met it resolves to. A choice that meets yet
     * another version shows that one instead.
     */
    const present = async (
      kind: EntryConflict['kind'],
      mine: EntryDraft | null,
      currentWire: EntryWire,
      settle: (result: ActionResult) => void,
      words: WriteWords,
      base?: OpenEntry,
    ): Promise<void> => {
      const theirs = await settleWire(currentWire);
      if (theirs?.status !== 'open') {
        setConflict(null);
        settle({ ok: false, message: CURRENT_DAMAGED });
        return;
      }
      let theirsDraft: EntryDraft;
      try {
        theirsDraft = await openEntryDraft(vaultKey, theirs);
      } catch {
        markDamaged(theirs);
        setConflict(null);
        settle({ ok: false, message: CURRENT_DAMAGED });
        return;
      }
      // A newer version with the very content the person started from (saved again in the
      // item format after unlock, moved to Trash and back elsewhere) is no conflict: mine goes
      // on top of it, as it would have on the version it was based on.
      if (kind === 'save' && mine !== null && base !== undefined && base.deletedAt === theirs.deletedAt) {
        const started = await openEntryDraft(vaultKey, base).catch(() => null);
        if (started !== null && changedParts(started, theirsDraft).length === 0) {
          const outcome = await writeDraft(theirs.id, theirs.revision, mine, words);
          if ('conflict' in outcome) await present(kind, mine, outcome.conflict, settle, words, base);
          else {
            setConflict(null);
            settle(outcome.ok ? { ok: true } : outcome);
          }
          return;
        }
      }

      // "Use theirs" saves mine first and theirs again on top of it, so that BOTH versions are
      // in the history (the server keeps the version each write replaces): nothing the person
      // typed is lost, and the current version is theirs, unchanged. Once mine is saved, a
      // retry after a failure only puts theirs back, on the revision mine got.
      let mineSavedAs: number | null = null;

      const resolve = async (choice: ConflictChoice): Promise<ActionResult> => {
        if (choice.kind === 'cancel' || (kind === 'delete' && choice.kind === 'theirs')) {
          setConflict(null);
          settle({ ok: false, message: kind === 'save' ? NOT_SAVED_AFTER_CONFLICT : KEPT_NEWER_VERSION });
          return { ok: true };
        }
        let outcome: WriteOutcome;
        if (kind === 'delete') outcome = await trashAt(theirs.id, theirs.revision);
        else if (choice.kind === 'merge') outcome = await writeDraft(theirs.id, theirs.revision, choice.draft, words);
        else if (choice.kind === 'mine' || mine === null)
          outcome = await writeDraft(theirs.id, theirs.revision, mine ?? theirsDraft, words);
        else {
          let failed: WriteOutcome | null = null;
          if (mineSavedAs === null) {
            const first = await writeDraft(theirs.id, theirs.revision, mine, words);
            if (!('ok' in first) || !first.ok) failed = first;
            else if (first.entry.status !== 'open') failed = { ok: false, message: CURRENT_DAMAGED };
            else mineSavedAs = first.entry.revision;
          }
          outcome = failed ?? (await writeDraft(theirs.id, mineSavedAs ?? theirs.revision, theirsDraft, words));
        }
        if ('conflict' in outcome) {
          await present(kind, mine, outcome.conflict, settle, words, base);
          return { ok: true };
        }
        if (!outcome.ok) return outcome;
        setConflict(null);
        settle({ ok: true });
        return { ok: true };
      };

      setConflict({ kind, mine, theirs, theirsDraft, resolve });
    };

    const askAbout = (
      kind: EntryConflict['kind'],
      mine: EntryDraft | null,
      current: EntryWire,
      words: WriteWords,
      base?: OpenEntry,
    ) => new Promise<ActionResult>((settle) => void present(kind, mine, current, settle, words, base));

    const save = async (entry: OpenEntry, draft: EntryDraft, words = SAVE_WORDS): Promise<ActionResult> => {
      const outcome = await writeDraft(entry.id, entry.revision, draft, words);
      if ('conflict' in outcome) return askAbout('save', draft, outcome.conflict, words, entry);
      return outcome.ok ? { ok: true } : outcome;
    };

    /** 409 on restore or purge: the entry changed meanwhile (e.g. restored in another tab): show it as it is. */
    const refreshOnConflict = async (error: unknown): Promise<ActionResult | null> => {
      const current = entryConflictOf(error);
      if (!current) return null;
      await settleWire(current);
      return { ok: false, message: `${CHANGED_ELSEWHERE} It now shows the current version.` };
    };

    const revisionOf = (entry: VaultEntry) => (entry.status === 'open' ? entry.revision : entry.revision);
    const NO_REVISION: ActionResult = {
      ok: false,
      message: 'This entry came from the server without a revision, so it cannot be changed. Reload the page and try again.',
    };

    const folderFailure = async (error: unknown, folder: OpenFolder, what: string): Promise<FolderResult> => {
      const current = folderConflictOf(error);
      if (current) {
        const opened = await openFolder(vaultKey, current);
        if (opened) dispatch({ type: 'folder-saved', folder: opened });
        return { ok: false, message: 'This folder was changed elsewhere; it now shows its current name. Try again.' };
      }
      logFailure('Saving a folder', error);
      if (error instanceof ApiError && error.status === 404) dispatch({ type: 'folder-removed', id: folder.id });
      return { ok: false, message: failureMessage(what, error) };
    };

    return {
      async add(draft) {
        const words: WriteWords = { context: 'Add New Password', what: 'save', keptInForm: true };
        let request;
        let member;
        try {
          const sealed = await sealEntry(vaultKey, newEntryId(), draft);
          request = toAddRequest(sealed);
          member = writtenEntryMember(sealed, 1);
        } catch (error) {
          return { ok: false, message: failureMessage(words.what, error, words) };
        }
        try {
          const addEntries = [{ member, name: draft.serviceName }];
          await settleWire(
            await write(
              () => ({ addEntries }),
              (state) => addEntry(request, state),
            ),
          );
          return { ok: true };
        } catch (error) {
          logFailure(words.context, error);
          return { ok: false, message: failureMessage(words.what, error, words) };
        }
      },

      save: (entry, draft) => save(entry, draft),

      async trash(entry) {
        const revision = revisionOf(entry);
        if (revision === null) return NO_REVISION;
        const outcome = await trashAt(entry.id, revision);
        if ('conflict' in outcome) return askAbout('delete', null, outcome.conflict, SAVE_WORDS);
        return outcome.ok ? { ok: true } : outcome;
      },

      async restore(entry) {
        const revision = revisionOf(entry);
        if (revision === null) return NO_REVISION;
        try {
          const restoreEntries = [{ id: entry.id, revision }];
          await settleWire(
            await write(
              () => ({ restoreEntries }),
              (state) => restoreEntry(entry.id, revision, state),
            ),
          );
          return { ok: true };
        } catch (error) {
          const refreshed = await refreshOnConflict(error);
          if (refreshed) return refreshed;
          logFailure('Restoring a password', error);
          return { ok: false, message: failureMessage('restore it', error) };
        }
      },

      async purge(entry) {
        const revision = revisionOf(entry);
        if (revision === null) return NO_REVISION;
        try {
          await purgeEntry(entry.id, revision);
        } catch (error) {
          const refreshed = await refreshOnConflict(error);
          if (refreshed) return refreshed;
          logFailure('Deleting a password for good', error);
          if (!(error instanceof ApiError && error.status === 404))
            return { ok: false, message: failureMessage('delete it for good', error) };
        }
        changed(entry.id);
        dispatch({ type: 'removed', id: entry.id });
        return { ok: true };
      },

      async setFavorite(entry, on) {
        const words: WriteWords = {
          context: 'Marking a favourite',
          what: on ? 'mark it as a favourite' : 'remove it from favourites',
        };
        let draft: EntryDraft;
        try {
          draft = await openEntryDraft(vaultKey, entry);
        } catch {
          markDamaged(entry);
          return { ok: false, message: DAMAGED_MESSAGE };
        }
        let outcome = await writeDraft(entry.id, entry.revision, { ...draft, favorite: on }, words);
        // One intent on one flag merges with any change made elsewhere: apply it to theirs, once.
        if ('conflict' in outcome) {
          const theirs = await settleWire(outcome.conflict);
          if (theirs?.status !== 'open') return { ok: false, message: CURRENT_DAMAGED };
          try {
            draft = await openEntryDraft(vaultKey, theirs);
          } catch {
            markDamaged(theirs);
            return { ok: false, message: CURRENT_DAMAGED };
          }
          outcome = await writeDraft(theirs.id, theirs.revision, { ...draft, favorite: on }, words);
          if ('conflict' in outcome) {
            await settleWire(outcome.conflict);
            return { ok: false, message: `${CHANGED_ELSEWHERE} Try again.` };
          }
        }
        return outcome.ok ? { ok: true } : outcome;
      },

      async openSecrets(entry) {
        try {
          return await openEntrySecrets(vaultKey, entry);
        } catch {
          markDamaged(entry);
          throw new Error(DAMAGED_MESSAGE);
        }
      },

      async openDraft(entry) {
        try {
          return await openEntryDraft(vaultKey, entry);
        } catch {
          markDamaged(entry);
          throw new Error(DAMAGED_MESSAGE);
        }
      },

      async history(entry) {
        try {
          const versions = await getEntryHistory(entry.id);
          return {
            ok: true,
            versions: await Promise.all(
              versions.map(async (version) => ({
                revision: version.revision,
                savedAt: version.savedAt,
                replacedAt: version.replacedAt,
                draft: await openVersionDraft(vaultKey, entry.id, version).catch(() => null),
              })),
            ),
          };
        } catch (error) {
          logFailure('Loading the history', error);
          return { ok: false, message: failureMessage('load the history', error) };
        }
      },

      async restoreVersion(entry, version) {
        if (version.draft === null)
          return { ok: false, message: 'This version could not be decrypted, so it cannot be restored.' };
        return save(entry, version.draft, { context: 'Restoring a version', what: 'restore this version' });
      },

      async addFolder(typed) {
        const checked = checkFolderName(typed);
        if (!checked.ok) return checked;
        const id = newEntryId();
        try {
          const name = await sealFolderName(vaultKey, id, checked.name);
          const addFolders = [{ member: writtenFolderMember(id, 1, name), name: checked.name }];
          const wire = await write(
            () => ({ addFolders }),
            (state) => sendAddFolder({ id, name }, state),
          );
          const folder: OpenFolder = { id: wire.id, name: checked.name, revision: wire.revision };
          dispatch({ type: 'folder-saved', folder });
          return { ok: true, folder };
        } catch (error) {
          logFailure('Saving a folder', error);
          return { ok: false, message: failureMessage('add the folder', error) };
        }
      },

      async renameFolder(folder, typed) {
        const checked = checkFolderName(typed);
        if (!checked.ok) return checked;
        try {
          const name = await sealFolderName(vaultKey, folder.id, checked.name);
          const change = {
            removeFolders: [folder.id],
            addFolders: [{ member: writtenFolderMember(folder.id, folder.revision + 1, name), name: checked.name }],
          };
          const wire = await write(
            () => change,
            (state) => updateFolder(folder.id, { name, revision: folder.revision }, state),
          );
          const renamed: OpenFolder = { id: folder.id, name: checked.name, revision: wire.revision };
          dispatch({ type: 'folder-saved', folder: renamed });
          return { ok: true, folder: renamed };
        } catch (error) {
          return folderFailure(error, folder, 'rename the folder');
        }
      },

      async deleteFolder(folder) {
        try {
          await write(
            () => ({ removeFolders: [folder.id] }),
            (state) => sendDeleteFolder(folder.id, folder.revision, state),
          );
        } catch (error) {
          if (!(error instanceof ApiError && error.status === 404)) return folderFailure(error, folder, 'delete the folder');
        }
        dispatch({ type: 'folder-removed', id: folder.id });
        return { ok: true };
      },
    };
  }, [vaultKey, dispatch, revisions, integrity]);

  return useMemo(() => ({ ...actions, conflict }), [actions, conflict]);
}
