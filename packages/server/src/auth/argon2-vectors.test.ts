import argon2 from 'argon2';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveMasterKey, fromBase64Url, randomSalt, type KdfParams } from '@lockit/crypto';

/**
 * RFC 9106's Argon2id test vector (section 5.3) sets a secret key and associated data, which
 * the browser's Argon2id (hash-wasm, in @lockit/crypto) cannot take. So the chain is proved in
 * two links: the server's Argon2id (node-argon2, the reference C code) reproduces the RFC's
 * vector exactly, and the browser's Argon2id gives the same keys as the server's on generated
 * passwords and salts, as Lockit calls it (no secret, no associated data).
 */
const bytes = (value: number, length: number) => Buffer.alloc(length, value);

describe('Argon2id against RFC 9106', () => {
  it('the server implementation reproduces the section 5.3 Argon2id vector', async () => {
    const tag = await argon2.hash(bytes(0x01, 32), {
      type: argon2.argon2id,
      version: 0x13,
      memoryCost: 32,
      timeCost: 3,
      parallelism: 4,
      salt: bytes(0x02, 16),
      secret: bytes(0x03, 8),
      associatedData: bytes(0x04, 12),
      hashLength: 32,
      raw: true,
    });
    expect(tag.toString('hex')).toBe('0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659');
  });

  it('the browser implementation gives the same master key as the server one', async () => {
    const params: KdfParams = { algorithm: 'argon2id', memoryKiB: 19_456, iterations: 2, parallelism: 1 };
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 40 }), async (password) => {
        const salt = randomSalt();
        // The old floor keeps 8 runs quick; the derivation is the same at any size.
        const browser = await deriveMasterKey(password, salt, params, { legacyFloor: true });
        const server = await argon2.hash(Buffer.from(password.normalize('NFKC')), {
          type: argon2.argon2id,
          memoryCost: params.memoryKiB,
          timeCost: params.iterations,
          parallelism: params.parallelism,
          salt: Buffer.from(fromBase64Url(salt)),
          hashLength: 32,
          raw: true,
        });
        expect(Buffer.from(browser).toString('hex')).toBe(server.toString('hex'));
      }),
      { numRuns: 8 },
    );
  });
});
