import { type FolderWire } from '@lockit/contract';
import type { StoredFolder } from '../../db/repositories/folders-repository';
import { HttpError } from '../../http/http-error';
import { MESSAGES } from '../messages';

/** The stored row as the API sends it: the name's ciphertext as stored, times as ISO strings. */
export function toFolderWire(row: StoredFolder): FolderWire {
  return {
    id: row.id,
    name: row.name,
    revision: row.revision,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** 404 for no such folder (another account's included), else 409 with the folder as it is now. */
export function folderRefusalError(current: StoredFolder | undefined): HttpError {
  if (!current) return new HttpError(404, MESSAGES.folderNotFound);
  return new HttpError(409, MESSAGES.folderChangedElsewhere, { data: toFolderWire(current) });
}
