import type { Dispatch } from 'react';
import { api } from '@/lib/http';
import { logFailure } from '@/lib/log';
import type { FolderActions, FolderResult } from './entry-action-types';
import type { VaultEntriesAction } from '../hooks/use-vault-entries';
import { failureMessage } from './action-messages';
import { FolderWrites, type FolderConflict, type Gone, type OpenFolder, type VaultIntegrity } from '@lockit/client-core';

export interface FolderActionsDeps {
  vaultKey: CryptoKey;
  dispatch: Dispatch<VaultEntriesAction>;
  /** This tab's integrity queue, as entry writes go (lib/entry-writes.ts). */
  integrity: VaultIntegrity | null;
}

/** Adding, renaming and deleting folders (the client core's writes); each answer goes into useVaultEntries' state. */
export function createFolderActions({ vaultKey, dispatch, integrity }: FolderActionsDeps): FolderActions {
  const core = new FolderWrites({ api, vaultKey, integrity });

  const conflictOrGone = (result: FolderConflict | Gone, folder: OpenFolder, what: string): FolderResult => {
    if (result.kind === 'conflict') {
      if (result.opened) dispatch({ type: 'folder-saved', folder: result.opened });
      return { ok: false, message: 'This folder was changed elsewhere; it now shows its current name. Try again.' };
    }
    logFailure('Saving a folder', result.error);
    dispatch({ type: 'folder-removed', id: folder.id });
    return { ok: false, message: failureMessage(what, result.error) };
  };

  const failed = (error: unknown, what: string): FolderResult => {
    logFailure('Saving a folder', error);
    return { ok: false, message: failureMessage(what, error) };
  };

  return {
    async addFolder(typed) {
      try {
        const result = await core.add(typed);
        if (result.kind === 'invalid') return { ok: false, message: result.message };
        dispatch({ type: 'folder-saved', folder: result.folder });
        return { ok: true, folder: result.folder };
      } catch (error) {
        return failed(error, 'add the folder');
      }
    },

    async renameFolder(folder, typed) {
      try {
        const result = await core.rename(folder, typed);
        if (result.kind === 'invalid') return { ok: false, message: result.message };
        if (result.kind !== 'saved') return conflictOrGone(result, folder, 'rename the folder');
        dispatch({ type: 'folder-saved', folder: result.folder });
        return { ok: true, folder: result.folder };
      } catch (error) {
        return failed(error, 'rename the folder');
      }
    },

    async deleteFolder(folder) {
      try {
        const result = await core.delete(folder);
        if (result.kind === 'conflict') return conflictOrGone(result, folder, 'delete the folder');
      } catch (error) {
        return failed(error, 'delete the folder');
      }
      // Deleted, or already gone from the server: it goes from the list too.
      dispatch({ type: 'folder-removed', id: folder.id });
      return { ok: true };
    },
  };
}
