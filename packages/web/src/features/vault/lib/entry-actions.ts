import { api } from '@/lib/http';
import { logFailure } from '@/lib/log';
import type { EntryActions, FolderActions } from './entry-action-types';
import { CHANGED_ELSEWHERE, CURRENT_DAMAGED, failureMessage } from './action-messages';
import type { ConflictFlow } from './entry-conflict-flow';
import { SAVE_WORDS, type EntryWrites, type WriteWords } from './entry-writes';
import {
  DAMAGED_MESSAGE,
  openDraft as openEntryDraft,
  openEntryHistory,
  openSecrets as openEntrySecrets,
  type ActionResult,
  type Conflict,
  type EntryDraft,
  type OpenEntry,
  type VaultEntry,
} from '@lockit/client-core';

export interface EntryActionsDeps {
  vaultKey: CryptoKey;
  writes: EntryWrites;
  conflicts: Pick<ConflictFlow, 'askAbout'>;
}

/** The entry half of EntryActions: adding, editing, Trash, history and opening secrets. */
export function createEntryActions({ vaultKey, writes, conflicts }: EntryActionsDeps): Omit<EntryActions, keyof FolderActions> {
  const { core, queued, showQueued, markDamaged, removed, settleWire, writeDraft, trashAt, failed } = writes;
  const { askAbout } = conflicts;

  /**
   * One intent on one part (a flag, the file list) merges with any change made elsewhere:
   * applied to the entry, and on a conflict once to the newest version, never to a stale copy.
   */
  const applyToNewest = async (
    entry: OpenEntry,
    words: WriteWords,
    apply: (draft: EntryDraft) => EntryDraft,
  ): Promise<ActionResult> => {
    let draft: EntryDraft;
    try {
      draft = await openEntryDraft(vaultKey, entry);
    } catch {
      markDamaged(entry);
      return { ok: false, message: DAMAGED_MESSAGE };
    }
    let outcome = await writeDraft(entry.id, entry.revision, apply(draft), words);
    if ('conflict' in outcome) {
      const theirs = await settleWire(outcome.conflict);
      if (theirs?.status !== 'open') return { ok: false, message: CURRENT_DAMAGED };
      try {
        draft = await openEntryDraft(vaultKey, theirs);
      } catch {
        markDamaged(theirs);
        return { ok: false, message: CURRENT_DAMAGED };
      }
      outcome = await writeDraft(theirs.id, theirs.revision, apply(draft), words);
      if ('conflict' in outcome) {
        await settleWire(outcome.conflict);
        return { ok: false, message: `${CHANGED_ELSEWHERE} Try again.` };
      }
    }
    return outcome.ok ? { ok: true } : outcome;
  };

  /**
   * A version's content with the files it lists that the server still holds (decision 0084):
   * a file deleted for good since is left out, so it never reads as one the server withholds.
   * A version from before items listed files keeps the item's current list.
   */
  const withRestorableFiles = async (entry: OpenEntry, version: EntryDraft): Promise<EntryDraft> => {
    const { files, deletedFiles: _versionDeleted, ...fields } = version;
    // What the item deleted for good stays deleted: the version is older than that.
    const deleted = [...new Set([...(entry.deletedFiles ?? []), ...(version.deletedFiles ?? [])])];
    const content: EntryDraft = deleted.length > 0 ? { ...fields, deletedFiles: deleted } : fields;
    if (files === undefined) return entry.files ? { ...content, files: entry.files.map((file) => ({ ...file })) } : content;
    const held = await api.call('list-attachments', { params: { entryId: entry.id } });
    const ids = new Set(held.data.map((wire) => wire.id.toLowerCase()));
    const gone = new Set(deleted.map((id) => id.toLowerCase()));
    return { ...content, files: files.filter((file) => ids.has(file.id.toLowerCase()) && !gone.has(file.id.toLowerCase())) };
  };

  const save = async (entry: OpenEntry, draft: EntryDraft, words = SAVE_WORDS): Promise<ActionResult> => {
    const outcome = await writeDraft(entry.id, entry.revision, draft, words, entry);
    if ('conflict' in outcome) return askAbout('save', draft, outcome.conflict, words, entry);
    return outcome.ok ? { ok: true } : outcome;
  };

  /** 409 on restore or purge: the entry changed meanwhile (e.g. restored in another tab): show it as it is. */
  const refreshed = async ({ current }: Conflict): Promise<ActionResult> => {
    await settleWire(current);
    return { ok: false, message: `${CHANGED_ELSEWHERE} It now shows the current version.` };
  };

  const revisionOf = (entry: VaultEntry) => (entry.status === 'open' ? entry.revision : entry.revision);
  const NO_REVISION: ActionResult = {
    ok: false,
    message: 'This entry came from the server without a revision, so it cannot be changed. Reload the page and try again.',
  };

  return {
    async add(draft) {
      const words: WriteWords = { context: 'Add New Password', what: 'save', keptInForm: true };
      try {
        const result = await (queued ?? core).add(draft);
        // Offline: it waits sealed in the queue, shown as it will be.
        if (result.kind === 'queued') await showQueued(result.write, undefined);
        else await settleWire(result.wire);
        return { ok: true, id: result.id };
      } catch (error) {
        return failed(error, words);
      }
    },

    save: (entry, draft) => save(entry, draft),

    async trash(entry) {
      const revision = revisionOf(entry);
      if (revision === null) return NO_REVISION;
      const outcome = await trashAt(entry.id, revision, entry);
      if ('conflict' in outcome) return askAbout('delete', null, outcome.conflict, SAVE_WORDS);
      return outcome.ok ? { ok: true } : outcome;
    },

    async restore(entry) {
      const revision = revisionOf(entry);
      if (revision === null) return NO_REVISION;
      let result;
      try {
        result = await (queued ?? core).restore(entry.id, revision);
      } catch (error) {
        logFailure('Restoring a password', error);
        return { ok: false, message: failureMessage('restore it', error) };
      }
      if (result.kind === 'queued') {
        await showQueued(result.write, entry);
        return { ok: true };
      }
      if (result.kind === 'conflict') return refreshed(result);
      await settleWire(result.wire);
      return { ok: true };
    },

    async purge(entry) {
      const revision = revisionOf(entry);
      if (revision === null) return NO_REVISION;
      let result;
      try {
        result = await core.purge(entry.id, revision);
      } catch (error) {
        logFailure('Deleting a password for good', error);
        return { ok: false, message: failureMessage('delete it for good', error) };
      }
      if (result.kind === 'conflict') return refreshed(result);
      if (result.kind === 'gone') logFailure('Deleting a password for good', result.error);
      removed(entry.id);
      return { ok: true };
    },

    setFavorite(entry, on) {
      const words: WriteWords = {
        context: 'Marking a favourite',
        what: on ? 'mark it as a favourite' : 'remove it from favourites',
      };
      return applyToNewest(entry, words, (draft) => ({ ...draft, favorite: on }));
    },

    setFiles(entry, change, served, deletedForGood) {
      const words: WriteWords = { context: 'Saving the item with its files', what: 'save the item with its files' };
      return applyToNewest(entry, words, (draft) => ({
        ...draft,
        files: change(draft.files ?? [...served]),
        ...(deletedForGood !== undefined && { deletedFiles: [...(draft.deletedFiles ?? []), deletedForGood] }),
      }));
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
        return { ok: true, versions: await openEntryHistory(api, vaultKey, entry.id) };
      } catch (error) {
        logFailure('Loading the history', error);
        return { ok: false, message: failureMessage('load the history', error) };
      }
    },

    async restoreVersion(entry, version) {
      if (version.draft === null) return { ok: false, message: 'This version could not be decrypted, so it cannot be restored.' };
      let draft: EntryDraft;
      try {
        draft = await withRestorableFiles(entry, version.draft);
      } catch (error) {
        logFailure('Restoring a version', error);
        return { ok: false, message: failureMessage('restore this version', error) };
      }
      return save(entry, draft, { context: 'Restoring a version', what: 'restore this version' });
    },
  };
}
