import { z } from 'zod';
import { CIPHERTEXT_PATTERN, KDF_LIMITS, OVERVIEW_CIPHERTEXT_PATTERN } from '@lockit/crypto';

/** Unpadded base64url of exactly `bytes` bytes. */
export const base64urlBytes = (bytes: number) =>
  z
    .string()
    .length(Math.ceil((bytes * 4) / 3), `must be ${bytes} bytes of base64url`)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be base64url');

/** authKey: 32 bytes derived from the master password in the browser (never the password). */
export const authKeySchema = base64urlBytes(32);
export const saltSchema = base64urlBytes(16);

/**
 * Every stored secret is a `v1.<iv>.<ciphertext+tag>` text or, since length hiding, a
 * `v2.<iv>.<padded ciphertext+tag>` one; the server refuses anything else.
 */
export const ciphertextSchema = (maxLength: number) =>
  z
    .string()
    .max(maxLength, `is longer than ${maxLength} characters`)
    .regex(CIPHERTEXT_PATTERN, 'must be a Lockit ciphertext (v1.<iv>.<data>), never plaintext');

/**
 * An entry's overview: a ciphertext as above or, since bound overviews, a
 * `v3.<iv>.<padded ciphertext+tag>` one (its associated data binds the entry's other fields).
 */
export const overviewCiphertextSchema = (maxLength: number) =>
  z
    .string()
    .max(maxLength, `is longer than ${maxLength} characters`)
    .regex(OVERVIEW_CIPHERTEXT_PATTERN, 'must be a Lockit ciphertext (v1.<iv>.<data>), never plaintext');

/**
 * Characters of the ciphertext text of a v2 (or v3) seal whose padded plaintext is
 * `paddedBytes` long: `v2.`, the 16-character IV, `.`, then the padded plaintext and the 16-byte tag in
 * unpadded base64url.
 */
export const sealedTextLength = (paddedBytes: number) => 3 + 16 + 1 + Math.ceil(((paddedBytes + 16) * 4) / 3);

export const kdfParamsSchema = z.object({
  algorithm: z.literal('argon2id'),
  memoryKiB: z.number().int().min(KDF_LIMITS.minMemoryKiB).max(KDF_LIMITS.maxMemoryKiB),
  iterations: z.number().int().min(KDF_LIMITS.minIterations).max(KDF_LIMITS.maxIterations),
  parallelism: z.number().int().min(KDF_LIMITS.minParallelism).max(KDF_LIMITS.maxParallelism),
});
export type KdfParamsWire = z.infer<typeof kdfParamsSchema>;

export const usernameSchema = z
  .string()
  .trim()
  .min(3, 'must be at least 3 characters')
  .max(32, 'must be at most 32 characters')
  .regex(/^[\p{L}\p{N}._-]+$/u, 'may contain only letters, digits, dots, dashes and underscores');

export const emailSchema = z.string().trim().max(254).pipe(z.email('must be an email address'));
export const fullnameSchema = z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters');

/** Every error answer: one sentence a person can read. */
export const errorResponseSchema = z.object({ message: z.string() });
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;
