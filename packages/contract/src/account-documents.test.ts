import { describe, expect, it } from 'vitest';
import { encryptField, generateVaultKeyBytes, importVaultKey, paddedLength } from '@lockit/crypto';
import {
  ACCOUNT_DOCUMENT_BODY_LIMIT,
  ACCOUNT_DOCUMENT_KINDS,
  ACCOUNT_DOCUMENT_MAX_CIPHERTEXT,
  putAccountDocumentRequestSchema,
} from './account-documents';

describe('account document caps under length hiding', () => {
  it('each cap is a whole padded size bucket sealed, and the PUT body limit holds it', () => {
    for (const kind of ACCOUNT_DOCUMENT_KINDS) {
      const cap = ACCOUNT_DOCUMENT_MAX_CIPHERTEXT[kind];
      const body = JSON.stringify({ ciphertext: 'x'.repeat(cap), revision: Number.MAX_SAFE_INTEGER });
      expect(body.length, kind).toBeLessThanOrEqual(ACCOUNT_DOCUMENT_BODY_LIMIT);
    }
  });

  it('keeps the capacity of the caps before length hiding: 16 KiB and 256 KiB of v1 ciphertext', () => {
    const v1Capacity = (characters: number) => Math.floor(((characters - 20) * 3) / 4) - 16;
    expect(paddedLength(v1Capacity(16 * 1024))).toBe(12 * 1024);
    expect(ACCOUNT_DOCUMENT_MAX_CIPHERTEXT['generator-settings']).toBeGreaterThanOrEqual(16 * 1024);
    expect(paddedLength(v1Capacity(256 * 1024))).toBe(192 * 1024);
    expect(ACCOUNT_DOCUMENT_MAX_CIPHERTEXT['health-settings']).toBeGreaterThanOrEqual(256 * 1024);
  });

  it('accepts the largest document that fits its bucket, sealed as the web app seals it', async () => {
    const vaultKey = await importVaultKey(generateVaultKeyBytes());
    const largest = await encryptField(vaultKey, 'account-document:generator-settings', 'notes', 'x'.repeat(12 * 1024 - 1));
    const schema = putAccountDocumentRequestSchema('generator-settings');
    expect(largest.length).toBe(ACCOUNT_DOCUMENT_MAX_CIPHERTEXT['generator-settings']);
    expect(schema.safeParse({ ciphertext: largest, revision: 0 }).success).toBe(true);
    const tooLarge = await encryptField(vaultKey, 'account-document:generator-settings', 'notes', 'x'.repeat(12 * 1024));
    expect(schema.safeParse({ ciphertext: tooLarge, revision: 0 }).success).toBe(false);
  });
});
