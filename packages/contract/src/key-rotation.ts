import { z } from 'zod';
import { ACCOUNT_DOCUMENT_MAX_CIPHERTEXT, accountDocumentKindSchema } from './account-documents';
import { keyEpochSchema, keyGenerationSchema, protectedKeySchema } from './accounts';
import { attachmentIdSchema, attachmentWrappedKeySchema } from './attachments';
import { authKeySchema } from './common';
import { ciphertextSchema, overviewCiphertextSchema } from './common';
import { entryIdSchema, maxCiphertextLength, ENTRY_PLAINTEXT_LIMITS } from './entries';
import { FOLDER_NAME_LIMIT, folderIdSchema } from './folders';
import { vaultStateSchema } from './vault-state';

/**
 * Key rotation (decision 0054): the browser makes a new vault key, re-encrypts
 * everything under it (files: their keys re-wrapped, decision 0071) and uploads it in parts
 * beside the live vault; a commit swaps it all in
 * one transaction. Until the commit nothing the vault uses changes, so a tab closed halfway
 * leaves the old vault whole; the staged parts expire.
 */

/** Items of each kind in one part; a part's body is at most KEY_ROTATION_PART_MAX_BYTES. */
export const KEY_ROTATION_PART_MAX_ITEMS = 500;
export const KEY_ROTATION_PART_MAX_BYTES = 4 * 1024 * 1024;
/** How long a started rotation waits for its commit. */
export const KEY_ROTATION_TTL_MS = 60 * 60 * 1000;

const field = (name: keyof typeof ENTRY_PLAINTEXT_LIMITS) => ciphertextSchema(maxCiphertextLength(ENTRY_PLAINTEXT_LIMITS[name]));
const entryCiphertexts = {
  serviceName: field('serviceName'),
  username: field('username'),
  password: field('password'),
  url: field('url').nullable(),
  notes: field('notes').nullable(),
  overview: overviewCiphertextSchema(maxCiphertextLength(ENTRY_PLAINTEXT_LIMITS.overview)).nullable(),
  details: field('details').nullable(),
};

// POST /api/user/key-rotation: the current password's auth key proves the person; the vault
// revision is the one every ciphertext about to be re-encrypted was read at.
export const startKeyRotationRequestSchema = z.object({
  authKey: authKeySchema,
  vaultRevision: z.number('is required: the vault revision everything was read at').int().min(0),
});
export const startKeyRotationResponseSchema = z.object({
  message: z.string(),
  data: z.object({ id: z.uuid(), keyGeneration: z.number().int(), expiresAt: z.string() }),
});

const capped = <T extends z.ZodType>(item: T) =>
  z.array(item).max(KEY_ROTATION_PART_MAX_ITEMS, `must hold at most ${KEY_ROTATION_PART_MAX_ITEMS} items`).optional();

// PUT /api/user/key-rotation/{id}/parts: re-encrypted items, same ids; sending one again replaces it.
export const keyRotationPartRequestSchema = z
  .object({
    /** Every entry, live and in Trash. */
    entries: capped(z.object({ id: entryIdSchema, ...entryCiphertexts })),
    /** Every earlier version, named by its entry and revision. */
    versions: capped(z.object({ entryId: entryIdSchema, revision: z.number().int().min(1), ...entryCiphertexts })),
    folders: capped(z.object({ id: folderIdSchema, name: ciphertextSchema(maxCiphertextLength(FOLDER_NAME_LIMIT)) })),
    documents: capped(
      z.object({
        kind: accountDocumentKindSchema,
        document: ciphertextSchema(Math.max(...Object.values(ACCOUNT_DOCUMENT_MAX_CIPHERTEXT))),
      }),
    ),
    /**
     * Every file of the account (uploads under way included), its key re-wrapped under the new
     * vault key for the same entry and file; the file's metadata and content, sealed under
     * that file key, stay as they are.
     */
    attachments: capped(z.object({ id: attachmentIdSchema, entryId: entryIdSchema, wrappedKey: attachmentWrappedKeySchema })),
  })
  .strict();
export type KeyRotationPart = z.infer<typeof keyRotationPartRequestSchema>;

/** What is staged so far, by kind. */
export const keyRotationProgressSchema = z.object({
  entries: z.number().int(),
  versions: z.number().int(),
  folders: z.number().int(),
  documents: z.number().int(),
  attachments: z.number().int(),
});
export const keyRotationPartResponseSchema = z.object({ message: z.string(), data: keyRotationProgressSchema });

// POST /api/user/key-rotation/{id}/commit: the new vault key wrapped under the same password
// at the next generation and the next key epoch, and the integrity state of the re-encrypted vault.
export const commitKeyRotationRequestSchema = z.object({
  protectedKey: protectedKeySchema,
  keyGeneration: keyGenerationSchema.min(1),
  keyEpoch: keyEpochSchema.min(1),
  vaultState: vaultStateSchema,
});
export const commitKeyRotationResponseSchema = z.object({
  message: z.string(),
  data: z.object({
    keyGeneration: z.number().int(),
    vaultRevision: z.number().int(),
    /** Passkeys whose unlock key wrapped the old vault key: their unlock was removed. */
    passkeyUnlocksRemoved: z.number().int(),
    /** Other sessions ended. */
    sessionsEnded: z.number().int(),
  }),
});
