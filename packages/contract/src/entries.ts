import { z } from 'zod';
import { paddedLength } from '@lockit/crypto';
import { ciphertextSchema, overviewCiphertextSchema, sealedTextLength } from './common';

/**
 * Plaintext caps the client enforces before encrypting; the server enforces the matching
 * ciphertext lengths (see maxCiphertextLength).
 */
export const ENTRY_PLAINTEXT_LIMITS = {
  serviceName: 200,
  username: 500,
  password: 1000,
  url: 2000,
  notes: 10_000,
  /** The JSON document of what the list shows, filters and searches (see entry-documents.ts). */
  overview: 16_000,
  /** The JSON document of an entry's other secrets: TOTP seed, hidden fields, card number. */
  details: 16_000,
} as const;
export type EntryField = keyof typeof ENTRY_PLAINTEXT_LIMITS;
export const ENTRY_FIELDS = Object.keys(ENTRY_PLAINTEXT_LIMITS) as EntryField[];

/**
 * Longest ciphertext text for `n` plaintext characters: `n` UTF-16 characters take at most 3n
 * UTF-8 bytes; the cap allows 4n, as it did before length hiding, padded to its size bucket
 * (a v2 seal), so the longest value the client allows fits padded, and so does every v1
 * text (unpadded, it is shorter).
 */
export const maxCiphertextLength = (n: number) => sealedTextLength(paddedLength(n * 4));

const field = (name: EntryField) => ciphertextSchema(maxCiphertextLength(ENTRY_PLAINTEXT_LIMITS[name]));

export const entryIdSchema = z.uuid('must be a UUID');

const entryFields = {
  serviceName: field('serviceName'),
  username: field('username'),
  password: field('password'),
  url: field('url').nullish(),
  notes: field('notes').nullish(),
  overview: overviewCiphertextSchema(maxCiphertextLength(ENTRY_PLAINTEXT_LIMITS.overview)).nullish(),
  details: field('details').nullish(),
};

/** The revision a write is based on: the server applies it only if the entry is still at it. */
export const revisionSchema = z.number('is required: the revision this change is based on').int().min(1);

// POST /api/passwords/add — the client makes the id, because ciphertexts are bound to it.
export const addEntryRequestSchema = z.object({ id: entryIdSchema, ...entryFields });
export type AddEntryRequest = z.infer<typeof addEntryRequestSchema>;

// PUT /api/passwords/update-password/{id} — the full entry; `_id` is accepted as `id`. The
// revision is required: a save never overwrites a version its author has not seen (409).
export const updateEntryRequestSchema = z.object({
  id: entryIdSchema.optional(),
  _id: entryIdSchema.optional(),
  ...entryFields,
  revision: revisionSchema,
});
export type UpdateEntryRequest = z.infer<typeof updateEntryRequestSchema>;

// DELETE /api/passwords/delete/{id}?revision=N moves the entry to Trash;
// DELETE /api/passwords/purge/{id}?revision=N deletes a trashed entry for good.
export const entryRevisionQuerySchema = z.object({
  revision: z.coerce.number('is required: the revision this change is based on').int().min(1),
});

// POST /api/passwords/restore/{id}: back from Trash.
export const restoreEntryRequestSchema = z.object({ revision: revisionSchema });

export const entrySchema = z.object({
  id: entryIdSchema,
  serviceName: z.string(),
  username: z.string(),
  password: z.string(),
  url: z.string().nullable(),
  notes: z.string().nullable(),
  /** Absent only in answers of servers older than items (read as null). */
  overview: z.string().nullable().default(null),
  details: z.string().nullable().default(null),
  revision: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** When it went to Trash; null while it is live. */
  deletedAt: z.string().nullable().default(null),
});
export type EntryWire = z.infer<typeof entrySchema>;

export const listEntriesResponseSchema = z.object({ message: z.string(), data: z.array(entrySchema) });
export const entryResponseSchema = z.object({ message: z.string(), data: entrySchema });

/** 409 of a write based on an old revision: the entry as it is now, to show beside the person's version. */
export const entryConflictResponseSchema = z.object({ message: z.string(), data: entrySchema });

/** One earlier version of an entry: its ciphertexts as they were, kept encrypted. */
export const entryVersionSchema = z.object({
  revision: z.number().int(),
  serviceName: z.string(),
  username: z.string(),
  password: z.string(),
  url: z.string().nullable(),
  notes: z.string().nullable(),
  overview: z.string().nullable(),
  details: z.string().nullable(),
  /** When this version was saved, and when a later write replaced it. */
  savedAt: z.string(),
  replacedAt: z.string(),
});
export type EntryVersionWire = z.infer<typeof entryVersionSchema>;

// GET /api/passwords/history/{id}: newest first, never with the list.
export const entryHistoryResponseSchema = z.object({ message: z.string(), data: z.array(entryVersionSchema) });
