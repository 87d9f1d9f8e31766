import { z } from 'zod';
import { ciphertextSchema } from './common';
import { maxCiphertextLength, revisionSchema } from './entries';

/**
 * Folders are objects of their own, named by a ciphertext bound to the folder id; nesting is
 * by name ("Work/Banking" sits in "Work"), as Bitwarden does, so the server learns nothing of
 * the tree. An entry names its folder inside its encrypted overview.
 */
export const FOLDER_NAME_LIMIT = 300;

export const folderIdSchema = z.uuid('must be a UUID');
const folderName = ciphertextSchema(maxCiphertextLength(FOLDER_NAME_LIMIT));

// POST /api/folders
export const addFolderRequestSchema = z.object({ id: folderIdSchema, name: folderName });
// PUT /api/folders/{id}
export const updateFolderRequestSchema = z.object({ name: folderName, revision: revisionSchema });

export const folderSchema = z.object({
  id: folderIdSchema,
  name: z.string(),
  revision: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FolderWire = z.infer<typeof folderSchema>;

export const listFoldersResponseSchema = z.object({ message: z.string(), data: z.array(folderSchema) });
export const folderResponseSchema = z.object({ message: z.string(), data: folderSchema });
