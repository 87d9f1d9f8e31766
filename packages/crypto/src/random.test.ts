import { describe, expect, it } from 'vitest';
import { fromBase64Url } from './encoding';
import { newEntryId, randomSalt } from './random';

describe('randomSalt', () => {
  it('is 16 bytes of unpadded base64url (22 characters)', () => {
    const salt = randomSalt();
    expect(salt).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(fromBase64Url(salt)).toHaveLength(16);
  });

  it('differs on every call', () => {
    const salts = new Set(Array.from({ length: 64 }, () => randomSalt()));
    expect(salts.size).toBe(64);
  });
});

describe('newEntryId', () => {
  it('is a lowercase random (version 4) UUID, different on every call', () => {
    const ids = Array.from({ length: 64 }, () => newEntryId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(64);
  });
});
