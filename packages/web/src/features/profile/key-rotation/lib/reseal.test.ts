import type { EntryVersionWire, EntryWire } from '@lockit/contract';
import { deriveVaultIntegrityKey, generateVaultKeyBytes, importVaultKey, openEntryOverview } from '@lockit/crypto';
import { describe, expect, it } from 'vitest';
import { openSealed, sealedEntry } from '@/testing/vault-fixtures';
import { resealUnit, type ResealKeys } from '@lockit/client-core';

async function rotationKeys(): Promise<ResealKeys> {
  const [oldBytes, newBytes] = [generateVaultKeyBytes(), generateVaultKeyBytes()];
  return {
    oldKey: await importVaultKey(oldBytes),
    newKey: await importVaultKey(newBytes),
    oldIntegrityKey: await deriveVaultIntegrityKey(oldBytes),
    newIntegrityKey: await deriveVaultIntegrityKey(newBytes),
  };
}

const PLAIN = { serviceName: 'Bank', username: 'ada', password: 'pw', notes: 'n', url: 'https://bank.test' };

const versionOf = (entry: EntryWire): EntryVersionWire => ({
  ...entry,
  savedAt: entry.createdAt,
  replacedAt: entry.updatedAt,
});

describe('resealUnit', () => {
  it('writes an entry saved before bound overviews, and each of its versions, with a bound version 2 overview', async () => {
    const keys = await rotationKeys();
    const entry = await sealedEntry(keys.oldKey, PLAIN, { format: 'unbound', revision: 2 });
    const older = await sealedEntry(keys.oldKey, { ...PLAIN, password: 'old' }, { format: 'unbound', id: entry.id });
    const unit = await resealUnit(keys, { type: 'entry', entry, versions: [{ ...versionOf(older), revision: 1 }] });
    if (unit.type !== 'entry') throw new Error(`not resealed: ${unit.type}`);

    for (const sealed of [unit.entry, unit.versions[0]!]) {
      expect(sealed.overview).toMatch(/^v3\./);
      const opened = await openEntryOverview(keys.newKey, entry.id, sealed);
      expect(opened.bound).toBe(true);
      expect(JSON.parse(opened.overview)).toMatchObject({ v: 2, name: 'Bank', username: 'ada', urls: ['https://bank.test'] });
    }
    expect(await openSealed(keys.newKey, entry.id, unit.versions[0]!)).toMatchObject({ password: 'old', notes: 'n' });
    expect(await openSealed(keys.newKey, entry.id, unit.entry)).toMatchObject({ password: 'pw', notes: 'n' });
  });

  it('keeps an entry of the format before items in its format', async () => {
    const keys = await rotationKeys();
    const entry = await sealedEntry(keys.oldKey, PLAIN, { format: 'legacy' });
    const unit = await resealUnit(keys, { type: 'entry', entry, versions: [] });
    if (unit.type !== 'entry') throw new Error(`not resealed: ${unit.type}`);
    expect(unit.entry.overview).toBeNull();
    expect(await openSealed(keys.newKey, entry.id, unit.entry)).toMatchObject({ serviceName: 'Bank', password: 'pw' });
  });

  it('reports an entry whose other field was replaced as damaged: its bound overview no longer opens', async () => {
    const keys = await rotationKeys();
    const entry = await sealedEntry(keys.oldKey, PLAIN);
    const other = await sealedEntry(keys.oldKey, PLAIN);
    const unit = await resealUnit(keys, { type: 'entry', entry: { ...entry, notes: other.notes }, versions: [] });
    expect(unit).toEqual({ type: 'damaged' });
  });
});
