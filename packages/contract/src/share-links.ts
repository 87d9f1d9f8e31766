import { z } from 'zod';
import { ATTACHMENT_CHUNK_OVERHEAD } from '@lockit/crypto';
import { base64urlBytes, ciphertextSchema, saltSchema } from './common';

/**
 * Share links (decision 0078): a text or a copy of an item, sealed in the browser under a key
 * that only the link's fragment carries (and a password, when set, that is part of that key).
 * The server keeps the ciphertext, the key check and the password's salt, all useless without
 * the fragment, and counts openings.
 */
export const SHARE_MIN_EXPIRY_SECONDS = 60 * 60;
export const SHARE_MAX_EXPIRY_SECONDS = 30 * 24 * 60 * 60;
export const SHARE_MAX_OPENINGS = 100;
/** A share holds at most a text or an item's five fields of 10,000 characters each, sealed. */
export const SHARE_CIPHERTEXT_MAX_CHARS = 300_000;
/** An owner's label: an item id and a title of 200 characters, sealed and padded. */
export const SHARE_LABEL_MAX_CHARS = 2_000;

export const shareIdSchema = z.uuid('must be a share id').transform((value) => value.toLowerCase());
export const shareParamsSchema = z.object({ id: shareIdSchema });

// POST /api/share-links — the browser names the share (its id is bound into the ciphertext).
export const createShareLinkRequestSchema = z.strictObject({
  id: shareIdSchema,
  ciphertext: ciphertextSchema(SHARE_CIPHERTEXT_MAX_CHARS),
  keyCheck: base64urlBytes(16),
  passwordSalt: saltSchema.nullable(),
  expiresInSeconds: z
    .number()
    .int('must be a whole number of seconds')
    .min(SHARE_MIN_EXPIRY_SECONDS, 'must be at least one hour')
    .max(SHARE_MAX_EXPIRY_SECONDS, 'must be at most 30 days'),
  maxOpenings: z
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(SHARE_MAX_OPENINGS, `must be at most ${SHARE_MAX_OPENINGS}`),
  deleteAfterOpening: z.boolean(),
  /** The owner's label (what was shared, from which item), sealed under the vault key; the recipient never gets it. */
  label: ciphertextSchema(SHARE_LABEL_MAX_CHARS).nullable().optional(),
  /**
   * A shared file (decision 0081): its sealed size in bytes, exactly what the upload will send.
   * The link opens only once every byte arrived (PUT …/content, then POST …/finish); the size
   * counts against the owner's attachment storage from the create on.
   */
  fileSize: z
    .number('must be the sealed size in bytes')
    .int()
    .min(ATTACHMENT_CHUNK_OVERHEAD, 'must be at least one sealed chunk')
    .max(Number.MAX_SAFE_INTEGER)
    .optional(),
});
export type CreateShareLinkRequest = z.infer<typeof createShareLinkRequestSchema>;

// PUT /api/share-links/{id}/label — the owner's label sealed again (after a key rotation).
export const relabelShareLinkRequestSchema = z.strictObject({ label: ciphertextSchema(SHARE_LABEL_MAX_CHARS) });
export type RelabelShareLinkRequest = z.infer<typeof relabelShareLinkRequestSchema>;

/** A share as its owner sees it: never the ciphertext again. */
export const shareLinkSchema = z.object({
  id: z.uuid(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  maxOpenings: z.number().int().positive(),
  openingsLeft: z.number().int().nonnegative(),
  deleteAfterOpening: z.boolean(),
  needsPassword: z.boolean(),
  /** The label sealed at creation, as stored; null for a link made without one. */
  label: z.string().nullable(),
  /** A shared file's sealed size and whether its upload finished; absent for a text or an item. */
  file: z.object({ size: z.number().int().nonnegative(), finished: z.boolean() }).nullable().optional(),
});
export type ShareLink = z.infer<typeof shareLinkSchema>;

export const shareLinkResponseSchema = z.object({ message: z.string(), data: shareLinkSchema });
// GET /api/share-links — the caller's links not yet expired (used-up ones too, with 0 left), newest first.
export const listShareLinksResponseSchema = z.object({ message: z.string(), data: z.array(shareLinkSchema) });

/**
 * GET /api/shared/{id} (public): what the recipient's page needs before the click. Reading it
 * uses no opening, so a link preview costs nothing. `passwordSalt` is null without a password.
 */
export const sharedLinkInfoSchema = z.object({
  id: z.uuid(),
  status: z.enum(['available', 'expired', 'used-up']),
  passwordSalt: saltSchema.nullable(),
  expiresAt: z.iso.datetime(),
});
export type SharedLinkInfo = z.infer<typeof sharedLinkInfoSchema>;
export const sharedLinkInfoResponseSchema = z.object({ message: z.string(), data: sharedLinkInfoSchema });

// POST /api/shared/{id}/open (public): uses one opening and answers the sealed share.
export const openedShareSchema = z.object({
  id: z.uuid(),
  ciphertext: ciphertextSchema(SHARE_CIPHERTEXT_MAX_CHARS),
  keyCheck: base64urlBytes(16),
  passwordSalt: saltSchema.nullable(),
  openingsLeft: z.number().int().nonnegative(),
  /**
   * For a shared file: its sealed size and the ticket that lets this opening (and no other
   * request) fetch the bytes from POST /api/shared/{id}/file for a few minutes.
   */
  file: z.object({ size: z.number().int().nonnegative(), ticket: z.string().min(1) }).optional(),
});
export type OpenedShare = z.infer<typeof openedShareSchema>;
export const openedShareResponseSchema = z.object({ message: z.string(), data: openedShareSchema });

/** A shared file's download ticket: issued by one opening, valid for a few minutes (decision 0081). */
export const SHARE_FILE_TICKET_MAX_CHARS = 200;
// POST /api/shared/{id}/file (public): the ticket an opening gave; answers the sealed bytes.
export const sharedFileRequestSchema = z.strictObject({
  ticket: z
    .string()
    .max(SHARE_FILE_TICKET_MAX_CHARS)
    .regex(/^[A-Za-z0-9_.-]+$/, 'must be a ticket from opening the link'),
});
export type SharedFileRequest = z.infer<typeof sharedFileRequestSchema>;
export const shareFileContentQuerySchema = z.object({
  offset: z.coerce.number('is required: where this part starts').int().min(0).max(Number.MAX_SAFE_INTEGER),
});
export const shareFilePartResponseSchema = z.object({ message: z.string(), received: z.number().int().min(0) });
