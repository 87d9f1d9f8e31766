import { TRASHED_AT_HEADER, type EntryWire } from '@lockit/contract';
import { newEntryId } from '@lockit/crypto';
import type { ApiError } from '../../http/api-errors';
import { writtenEntryMember } from '../integrity/entry-members';
import { vaultStateHeaders } from '../integrity/vault-state-answers';
import { sealEntry, toAddRequest, toUpdateRequest, type SealedEntry } from '../seal-entry';
import type { EntryDraft } from '../vault-entry';
import { entryConflictOf, isGone } from './conflict-answers';
import { writeWithState, type VaultWritesPlatform } from './write-platform';

/** The server stored the write: `wire` is its answer (still wire data: open it before showing it). */
export type Saved = { kind: 'saved'; wire: EntryWire };
/**
 * The write was based on a revision that is no longer the current one (409): nothing changed,
 * and `current` is the version saved elsewhere, as the server holds it. Both versions stay
 * reachable: the caller's draft is still its own, theirs is here (and earlier ones in history).
 */
export type Conflict = { kind: 'conflict'; current: EntryWire };
/** What the write names is no longer on the server (404). */
export type Gone = { kind: 'gone'; error: ApiError };

export type SaveResult = Saved | Conflict;
export type TrashResult = Saved | Conflict | Gone;
export type PurgeResult = { kind: 'purged' } | Conflict | Gone;

/**
 * The writes of one entry, for every client: each seals with the vault key, names the revision
 * it is based on, carries the whole-vault state after it (through the device's integrity queue)
 * and calls the API by route name. Anything but a 409 with the current version (or a 404 where
 * noted) rejects: a NetworkError, an ApiError, an EntryDraftError (a draft that cannot be
 * sealed, nothing sent), a VaultIntegrityRefusedError (the last check failed, nothing sent).
 *
 * Security invariants:
 * - Only ciphertexts leave the device: every field is sealed under the vault key, bound to the
 *   entry id, before `send`.
 * - A move to Trash seals its trash time into the next state and sends the same time in
 *   `x-lockit-trashed-at` (decision 0061); the time is taken once, so every retry seals one time.
 */
export class EntryWrites {
  constructor(private readonly platform: VaultWritesPlatform) {}

  /** A new entry under an id this device makes. */
  async add(draft: EntryDraft, id: string = newEntryId()): Promise<Saved & { id: string }> {
    return this.addSealed(await sealEntry(this.platform.vaultKey, id, draft), draft.serviceName);
  }

  /**
   * An add of an entry sealed already (with sealEntry, e.g. queued while offline): the same
   * request `add` sends. `name` is the plaintext service name, kept on the device for reports.
   */
  async addSealed(sealed: SealedEntry, name: string): Promise<Saved & { id: string }> {
    const { id } = sealed;
    const body = toAddRequest(sealed);
    const addEntries = [{ member: writtenEntryMember(sealed, 1), name }];
    const answer = await writeWithState(
      this.platform,
      () => ({ addEntries }),
      (state) => this.platform.api.call('add-entry', { body, headers: vaultStateHeaders(state) }),
    );
    return { kind: 'saved', wire: answer.data, id };
  }

  /** The whole entry, sealed again, on `revision`: an edit, a move to another folder, a version restored. */
  async update(id: string, revision: number, draft: EntryDraft): Promise<SaveResult> {
    return this.updateSealed(await sealEntry(this.platform.vaultKey, id, draft), revision, draft.serviceName);
  }

  /** An update of an entry sealed already (e.g. queued while offline), on `revision`: the request `update` sends. */
  async updateSealed(sealed: SealedEntry, revision: number, name: string): Promise<SaveResult> {
    const { id } = sealed;
    const body = toUpdateRequest(sealed, revision);
    const replaceEntries = [{ member: writtenEntryMember(sealed, revision + 1), name }];
    try {
      const answer = await writeWithState(
        this.platform,
        () => ({ replaceEntries }),
        (state) => this.platform.api.call('update-entry', { params: { id }, body, headers: vaultStateHeaders(state) }),
      );
      return { kind: 'saved', wire: answer.data };
    } catch (error) {
      return conflictOr(error);
    }
  }

  /** The spec's delete: to Trash since now (or since `trashedAt`, a delete queued while offline). */
  async trash(id: string, revision: number, trashedAt: number = (this.platform.now ?? Date.now)()): Promise<TrashResult> {
    // One time for every try: it is sealed into the state and sent beside it.
    try {
      const answer = await writeWithState(
        this.platform,
        () => ({ trashEntries: [{ id, trashedAt }] }),
        (state) =>
          this.platform.api.call('delete-entry', {
            params: { id },
            query: { revision },
            headers: { ...vaultStateHeaders(state), [TRASHED_AT_HEADER]: String(trashedAt) },
          }),
      );
      return { kind: 'saved', wire: answer.data };
    } catch (error) {
      if (isGone(error)) return { kind: 'gone', error };
      return conflictOr(error);
    }
  }

  /** Back from Trash; `revision` is the trashed one. */
  async restore(id: string, revision: number): Promise<SaveResult> {
    const restoreEntries = [{ id, revision }];
    try {
      const answer = await writeWithState(
        this.platform,
        () => ({ restoreEntries }),
        (state) =>
          this.platform.api.call('restore-entry', { params: { id }, body: { revision }, headers: vaultStateHeaders(state) }),
      );
      return { kind: 'saved', wire: answer.data };
    } catch (error) {
      return conflictOr(error);
    }
  }

  /** For good: a trashed entry and its history. A live one is refused (409 without a version: it rejects). */
  async purge(id: string, revision: number): Promise<PurgeResult> {
    try {
      await writeWithState(
        this.platform,
        () => ({ purgeEntries: [id] }),
        (state) =>
          this.platform.api.call('purge-entry', { params: { id }, query: { revision }, headers: vaultStateHeaders(state) }),
      );
      return { kind: 'purged' };
    } catch (error) {
      if (isGone(error)) return { kind: 'gone', error };
      return conflictOr(error);
    }
  }
}

function conflictOr(error: unknown): Conflict {
  const current = entryConflictOf(error);
  if (current) return { kind: 'conflict', current };
  throw error;
}
