import { newEntryId } from '@lockit/crypto';
import { ApiError } from '@/lib/api-errors';
import { logFailure } from '@/lib/log';
import { addEntry } from '../api/add-entry';
import { entryConflictOf } from '../api/entry-conflict';
import { getEntryHistory } from '../api/get-entry-history';
import { purgeEntry } from '../api/purge-entry';
import { restoreEntry } from '../api/restore-entry';
import type { EntryActions, FolderActions } from './entry-action-types';
import { writtenEntryMember } from '@lockit/client-core';
import { CHANGED_ELSEWHERE, CURRENT_DAMAGED, failureMessage } from './action-messages';
import type { ConflictFlow } from './entry-conflict-flow';
import { SAVE_WORDS, type EntryWrites, type WriteWords } from './entry-writes';
import {
  openDraft as openEntryDraft,
  openSecrets as openEntrySecrets,
  openVersionDraft,
  sealEntry,
  toAddRequest,
} from '@lockit/client-core';
import { DAMAGED_MESSAGE, type ActionResult, type EntryDraft, type OpenEntry, type VaultEntry } from '@lockit/client-core';

export interface EntryActionsDeps {
  vaultKey: CryptoKey;
  writes: EntryWrites;
  conflicts: Pick<ConflictFlow, 'askAbout'>;
}

/** The entry half of EntryActions: adding, editing, Trash, history and opening secrets. */
export function createEntryActions({ vaultKey, writes, conflicts }: EntryActionsDeps): Omit<EntryActions, keyof FolderActions> {
  const { write, markDamaged, removed, settleWire, writeDraft, trashAt } = writes;
  const { askAbout } = conflicts;

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

  return {
    async add(draft) {
      const words: WriteWords = { context: 'Add New Password', what: 'save', keptInForm: true };
      let request;
      let member;
      const id = newEntryId();
      try {
        const sealed = await sealEntry(vaultKey, id, draft);
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
        return { ok: true, id };
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
        await write(
          () => ({ purgeEntries: [entry.id] }),
          (state) => purgeEntry(entry.id, revision, state),
        );
      } catch (error) {
        const refreshed = await refreshOnConflict(error);
        if (refreshed) return refreshed;
        logFailure('Deleting a password for good', error);
        if (!(error instanceof ApiError && error.status === 404))
          return { ok: false, message: failureMessage('delete it for good', error) };
      }
      removed(entry.id);
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
      if (version.draft === null) return { ok: false, message: 'This version could not be decrypted, so it cannot be restored.' };
      return save(entry, version.draft, { context: 'Restoring a version', what: 'restore this version' });
    },
  };
}
