import { z } from 'zod';
import { ciphertextSchema, sealedTextLength } from './common';

/**
 * Encrypted per-account documents (decision 0030): one ciphertext per account and kind,
 * sealed in the browser under the vault key and bound to its kind, so the server stores
 * settings and history it cannot read. Each write compares and swaps on the revision.
 */
export const ACCOUNT_DOCUMENT_KINDS = ['generator-settings', 'generator-history', 'health-settings'] as const;
export const accountDocumentKindSchema = z.enum(ACCOUNT_DOCUMENT_KINDS, {
  error: `must be one of ${ACCOUNT_DOCUMENT_KINDS.join(', ')}`,
});
export type AccountDocumentKind = z.infer<typeof accountDocumentKindSchema>;

/**
 * The longest ciphertext (characters) of each kind. History and health settings stay under
 * the route's body limit (ACCOUNT_DOCUMENT_BODY_LIMIT); settings are a handful of options.
 * Each is a padded size bucket sealed (12 KiB and 192 KiB of JSON, less one byte for the
 * padding marker): what 16 and 256 KiB of v1 ciphertext held before length hiding.
 */
export const ACCOUNT_DOCUMENT_MAX_CIPHERTEXT: Record<AccountDocumentKind, number> = {
  'generator-settings': sealedTextLength(12 * 1024),
  'generator-history': sealedTextLength(192 * 1024),
  'health-settings': sealedTextLength(192 * 1024),
};

/** The PUT's body limit in bytes: the largest ciphertext plus room for the JSON around it. */
export const ACCOUNT_DOCUMENT_BODY_LIMIT = 256 * 1024 + 1024;

/** The revision a write is based on: 0 when no document exists yet. */
export const accountDocumentRevisionSchema = z
  .number('is required: the revision this change is based on (0 for a new document)')
  .int('must be a whole number')
  .min(0, 'must be at least 0');

// GET|PUT /api/account/documents/{kind}
export const accountDocumentParamsSchema = z.object({ kind: accountDocumentKindSchema });

/** PUT body for one kind: its ciphertext, capped for that kind, and the revision it replaces. */
export function putAccountDocumentRequestSchema(kind: AccountDocumentKind) {
  return z.object({
    ciphertext: ciphertextSchema(ACCOUNT_DOCUMENT_MAX_CIPHERTEXT[kind]),
    revision: accountDocumentRevisionSchema,
  });
}
/** Any kind's PUT body, within the largest kind's cap: what the API document shows for all kinds. */
export const putAnyAccountDocumentRequestSchema = z.object({
  ciphertext: ciphertextSchema(Math.max(...Object.values(ACCOUNT_DOCUMENT_MAX_CIPHERTEXT))),
  revision: accountDocumentRevisionSchema,
});
export type PutAccountDocumentRequest = z.infer<ReturnType<typeof putAccountDocumentRequestSchema>>;

export const accountDocumentSchema = z.object({
  kind: accountDocumentKindSchema,
  ciphertext: z.string(),
  revision: z.number().int().min(1),
  updatedAt: z.string(),
});
export type AccountDocumentWire = z.infer<typeof accountDocumentSchema>;

/** GET answers `data: null` for a kind never saved; a 409 on PUT carries the current as `data`. */
export const accountDocumentResponseSchema = z.object({ message: z.string(), data: accountDocumentSchema.nullable() });
export type AccountDocumentResponse = z.infer<typeof accountDocumentResponseSchema>;
