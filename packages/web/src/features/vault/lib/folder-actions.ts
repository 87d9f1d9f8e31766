import { newEntryId } from '@lockit/crypto';
import type { Dispatch } from 'react';
import { ApiError } from '@/lib/api-errors';
import { logFailure } from '@/lib/log';
import { addFolder as sendAddFolder } from '../api/add-folder';
import { deleteFolder as sendDeleteFolder } from '../api/delete-folder';
import { folderConflictOf } from '../api/entry-conflict';
import { updateFolder } from '../api/update-folder';
import type { FolderActions, FolderResult } from './entry-action-types';
import type { VaultEntriesAction } from '../hooks/use-vault-entries';
import { writtenFolderMember } from '@lockit/client-core';
import { failureMessage } from './action-messages';
import type { EntryWrites } from './entry-writes';
import { checkFolderName, openFolder, sealFolderName } from './seal-folder';
import type { OpenFolder } from '@lockit/client-core';

export interface FolderActionsDeps {
  vaultKey: CryptoKey;
  dispatch: Dispatch<VaultEntriesAction>;
  /** Through the tab's integrity queue, as entry writes go (lib/entry-writes.ts). */
  write: EntryWrites['write'];
}

/** Adding, renaming and deleting folders; each puts its answer into useVaultEntries' state. */
export function createFolderActions({ vaultKey, dispatch, write }: FolderActionsDeps): FolderActions {
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
}
