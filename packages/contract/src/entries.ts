import { z } from 'zod';
import { ciphertextSchema } from './common';

/**
 * Plaintext caps the client enforces before encrypting; the server enforces the matching
 * ciphertext lengths (UTF-8 can take 4 bytes a character, base64url adds a third, plus IV).
 */
export const ENTRY_PLAINTEXT_LIMITS = {
  serviceName: 200,
  username: 500,
  password: 1000,
  url: 2000,
  notes: 10_000,
} as const;
export type EntryField = keyof typeof ENTRY_PLAINTEXT_LIMITS;
export const ENTRY_FIELDS = Object.keys(ENTRY_PLAINTEXT_LIMITS) as EntryField[];

/** Longest ciphertext text for `n` plaintext characters. */
export const maxCiphertextLength = (n: number) => 3 + 16 + 1 + Math.ceil(((n * 4 + 16) * 4) / 3);

const field = (name: EntryField) => ciphertextSchema(maxCiphertextLength(ENTRY_PLAINTEXT_LIMITS[name]));

export const entryIdSchema = z.uuid('must be a UUID');

const entryFields = {
  serviceName: field('serviceName'),
  username: field('username'),
  password: field('password'),
  url: field('url').nullish(),
  notes: field('notes').nullish(),
};

// POST /api/passwords/add — the client makes the id, because ciphertexts are bound to it.
export const addEntryRequestSchema = z.object({ id: entryIdSchema, ...entryFields });
export type AddEntryRequest = z.infer<typeof addEntryRequestSchema>;

// PUT /api/passwords/update-password/{id} — the full entry; `_id` is accepted as `id`.
export const updateEntryRequestSchema = z.object({
  id: entryIdSchema.optional(),
  _id: entryIdSchema.optional(),
  ...entryFields,
  /** When given, the update applies only if the stored revision still matches. */
  revision: z.number().int().min(1).optional(),
});
export type UpdateEntryRequest = z.infer<typeof updateEntryRequestSchema>;

export const entrySchema = z.object({
  id: entryIdSchema,
  serviceName: z.string(),
  username: z.string(),
  password: z.string(),
  url: z.string().nullable(),
  notes: z.string().nullable(),
  revision: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type EntryWire = z.infer<typeof entrySchema>;

export const listEntriesResponseSchema = z.object({ message: z.string(), data: z.array(entrySchema) });
export const entryResponseSchema = z.object({ message: z.string(), data: entrySchema });
