import type { FolderWire } from '@lockit/contract';
import { newEntryId } from '@lockit/crypto';
import { checkFolderName, openFolder, sealFolderName } from '../folders/folder-name';
import { writtenFolderMember } from '../integrity/entry-members';
import { vaultStateHeaders } from '../integrity/vault-state-answers';
import type { OpenFolder } from '../vault-entry';
import { folderConflictOf, isGone } from './conflict-answers';
import type { Gone } from './entry-writes';
import { writeWithState, type VaultWritesPlatform } from './write-platform';

/** The name as typed is not one (empty, an empty level, too long): nothing was sent. */
export type InvalidName = { kind: 'invalid'; message: string };
/**
 * The folder changed elsewhere (409): `current` as the server holds it, and opened (null when
 * its name does not decrypt).
 */
export type FolderConflict = { kind: 'conflict'; current: FolderWire; opened: OpenFolder | null };
export type FolderSaved = { kind: 'saved'; folder: OpenFolder };

/**
 * Adding, renaming and deleting folders, as entry writes go: a name sealed under the vault key
 * and bound to the folder's id, the revision a change is based on, the next whole-vault state.
 * Any other failure rejects, as for EntryWrites.
 */
export class FolderWrites {
  constructor(private readonly platform: VaultWritesPlatform) {}

  async add(typed: string, id: string = newEntryId()): Promise<FolderSaved | InvalidName> {
    const checked = checkFolderName(typed);
    if (!checked.ok) return { kind: 'invalid', message: checked.message };
    const name = await sealFolderName(this.platform.vaultKey, id, checked.name);
    const addFolders = [{ member: writtenFolderMember(id, 1, name), name: checked.name }];
    const answer = await writeWithState(
      this.platform,
      () => ({ addFolders }),
      (state) => this.platform.api.call('add-folder', { body: { id, name }, headers: vaultStateHeaders(state) }),
    );
    return { kind: 'saved', folder: { id: answer.data.id, name: checked.name, revision: answer.data.revision } };
  }

  async rename(folder: OpenFolder, typed: string): Promise<FolderSaved | InvalidName | FolderConflict | Gone> {
    const checked = checkFolderName(typed);
    if (!checked.ok) return { kind: 'invalid', message: checked.message };
    try {
      const name = await sealFolderName(this.platform.vaultKey, folder.id, checked.name);
      const change = {
        removeFolders: [folder.id],
        addFolders: [{ member: writtenFolderMember(folder.id, folder.revision + 1, name), name: checked.name }],
      };
      const answer = await writeWithState(
        this.platform,
        () => change,
        (state) =>
          this.platform.api.call('update-folder', {
            params: { id: folder.id },
            body: { name, revision: folder.revision },
            headers: vaultStateHeaders(state),
          }),
      );
      return { kind: 'saved', folder: { id: folder.id, name: checked.name, revision: answer.data.revision } };
    } catch (error) {
      return this.#conflictOr(error);
    }
  }

  /** Entries keep naming the folder inside their overview; a client shows them as in no folder. */
  async delete(folder: OpenFolder): Promise<{ kind: 'deleted' } | FolderConflict | Gone> {
    try {
      await writeWithState(
        this.platform,
        () => ({ removeFolders: [folder.id] }),
        (state) =>
          this.platform.api.call('delete-folder', {
            params: { id: folder.id },
            query: { revision: folder.revision },
            headers: vaultStateHeaders(state),
          }),
      );
      return { kind: 'deleted' };
    } catch (error) {
      return this.#conflictOr(error);
    }
  }

  async #conflictOr(error: unknown): Promise<FolderConflict | Gone> {
    if (isGone(error)) return { kind: 'gone', error };
    const current = folderConflictOf(error);
    if (!current) throw error;
    return { kind: 'conflict', current, opened: await openFolder(this.platform.vaultKey, current) };
  }
}
