import { CIPHERTEXT_PATTERN, decryptField, FieldDecryptionError, generateVaultKeyBytes, importVaultKey, newEntryId } from '@lockit/crypto';
import { describe, expect, it } from 'vitest';
import { sealEntry, toAddRequest } from './seal-entry';

const draft = { serviceName: 'Mail', username: 'alice', password: 'secret', url: '', notes: 'note' };

describe('sealEntry', () => {
  it('encrypts every field, bound to the entry id and the field', async () => {
    const key = await importVaultKey(generateVaultKeyBytes());
    const id = newEntryId();
    const sealed = await sealEntry(key, id, draft);
    expect(sealed.id).toBe(id);
    for (const field of ['serviceName', 'username', 'password', 'notes'] as const) expect(sealed[field]).toMatch(CIPHERTEXT_PATTERN);
    expect(sealed.url).toBeNull();
    expect(await decryptField(key, id, 'password', sealed.password)).toBe('secret');
    await expect(decryptField(key, newEntryId(), 'password', sealed.password)).rejects.toBeInstanceOf(FieldDecryptionError);
    await expect(decryptField(key, id, 'username', sealed.password)).rejects.toBeInstanceOf(FieldDecryptionError);
  });

  it('uses a fresh IV each time', async () => {
    const key = await importVaultKey(generateVaultKeyBytes());
    const id = newEntryId();
    const [a, b] = await Promise.all([sealEntry(key, id, draft), sealEntry(key, id, draft)]);
    expect(a.password).not.toBe(b.password);
  });

  it('leaves absent optional fields out of an add request', async () => {
    const key = await importVaultKey(generateVaultKeyBytes());
    const request = toAddRequest(await sealEntry(key, newEntryId(), { ...draft, notes: '' }));
    expect(Object.keys(request).sort()).toEqual(['id', 'password', 'serviceName', 'username']);
  });
});
