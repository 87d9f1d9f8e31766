import { z } from 'zod';
import { paddedLength, SEALED_CHUNK_BYTES } from '@lockit/crypto';
import { keyEpochSchema } from './accounts';
import { ciphertextSchema, sealedTextLength } from './common';
import { entryIdSchema } from './entries';

/**
 * Attachments: files of an entry, sealed in the browser (docs/security.md, "Attachments").
 * The server keeps a file's wrapped key, its sealed metadata (name, size, type) and its
 * sealed content, and learns only the sealed size and when it changes.
 */
export const attachmentPaths = {
  /** GET: every file of the account, sealed (a key rotation's read). */
  all: '/api/attachments',
  /** GET: the entry's files; POST: starts an upload. */
  list: (entryId: string) => `/api/attachments/${encodeURIComponent(entryId)}`,
  /** PUT: a new sealed name (rename); DELETE: the file. */
  file: (entryId: string, id: string) => `/api/attachments/${encodeURIComponent(entryId)}/${encodeURIComponent(id)}`,
  /** GET: the sealed content, streamed; PUT `?offset=N`: appends a part of it (an upload). */
  content: (entryId: string, id: string) => `${attachmentPaths.file(entryId, id)}/content`,
  /** POST: ends an upload once every byte announced has arrived. */
  finish: (entryId: string, id: string) => `${attachmentPaths.file(entryId, id)}/finish`,
} as const;

/** The most sealed bytes one upload request carries: 64 whole chunks (about 4 MiB). */
export const ATTACHMENT_PART_MAX_BYTES = 64 * SEALED_CHUNK_BYTES;

/** The wrapped file key: a v1 text of the 32 key bytes. */
export const attachmentWrappedKeySchema = ciphertextSchema(128);
const wrappedKeySchema = attachmentWrappedKeySchema;
/** Sealed `{ name, size, type }`: a name of 255 characters of up to 4 bytes each fits its bucket. */
export const ATTACHMENT_METADATA_MAX_LENGTH = sealedTextLength(paddedLength(2048));
const metadataSchema = ciphertextSchema(ATTACHMENT_METADATA_MAX_LENGTH);

export const attachmentIdSchema = z.uuid('must be a UUID');
export const attachmentEntryParamsSchema = z.object({ entryId: entryIdSchema });
export const attachmentParamsSchema = z.object({ entryId: entryIdSchema, id: attachmentIdSchema });

export const createAttachmentRequestSchema = z.object({
  id: attachmentIdSchema,
  wrappedKey: wrappedKeySchema,
  metadata: metadataSchema,
  /** The sealed size in bytes, exactly what the upload will send. */
  size: z.number('is required: the sealed size in bytes').int().min(1).max(Number.MAX_SAFE_INTEGER),
  /**
   * The key epoch of the vault key that wrapped the file key: when sent, the server refuses the
   * file (409) if the account's key has moved on, so a tab still holding a rotated-away key
   * cannot leave a file no key opens.
   */
  keyEpoch: keyEpochSchema.optional(),
});
export type CreateAttachmentRequest = z.infer<typeof createAttachmentRequestSchema>;

export const renameAttachmentRequestSchema = z.object({ metadata: metadataSchema });

export const attachmentContentQuerySchema = z.object({
  offset: z.coerce.number('is required: where this part starts').int().min(0).max(Number.MAX_SAFE_INTEGER),
});

export const attachmentSchema = z.object({
  id: attachmentIdSchema,
  entryId: entryIdSchema,
  wrappedKey: z.string(),
  metadata: z.string(),
  size: z.number().int().min(0),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type AttachmentWire = z.infer<typeof attachmentSchema>;

export const attachmentUsageSchema = z.object({
  /** Sealed bytes the account's files (and uploads under way) take. */
  usedBytes: z.number().int().min(0),
  /** The server's limits, in sealed bytes. */
  maxFileBytes: z.number().int().min(0),
  maxAccountBytes: z.number().int().min(0),
});
export type AttachmentUsage = z.infer<typeof attachmentUsageSchema>;

export const listAttachmentsResponseSchema = z.object({
  message: z.string(),
  data: z.array(attachmentSchema),
  usage: attachmentUsageSchema,
});
/**
 * GET /api/attachments: every file of the account, uploads under way included (`finished`
 * false), sealed as stored: what a key rotation re-wraps.
 */
export const accountAttachmentSchema = attachmentSchema.extend({ finished: z.boolean() });
export type AccountAttachmentWire = z.infer<typeof accountAttachmentSchema>;
export const listAccountAttachmentsResponseSchema = z.object({
  message: z.string(),
  data: z.array(accountAttachmentSchema),
});
export const attachmentResponseSchema = z.object({ message: z.string(), data: attachmentSchema });
export const attachmentPartResponseSchema = z.object({ message: z.string(), received: z.number().int().min(0) });
