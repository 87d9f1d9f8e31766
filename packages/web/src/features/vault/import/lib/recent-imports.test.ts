import { describe, expect, it } from 'vitest';
import { forgetImport, MAX_KEPT_IDS, packIds, readRecentImports, rememberImport, unpackIds } from './recent-imports';

const batch = (n: number) => ({
  batchId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  count: n,
  source: 'Bitwarden (JSON)',
  tag: 'Imported from Bitwarden (JSON) 2025-01-01',
  at: '2025-01-01T00:00:00.000Z',
});

describe('recent imports', () => {
  it('keeps the last ten per account, newest first, and forgets an undone one', () => {
    for (let n = 1; n <= 12; n++) rememberImport('Alice', batch(n));
    const held = readRecentImports('alice');
    expect(held.map((b) => b.count)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
    expect(readRecentImports('bob')).toEqual([]);
    expect(forgetImport('alice', batch(12).batchId).map((b) => b.count)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3]);
  });

  it('reads damaged storage as no imports', () => {
    localStorage.setItem('lockit.recent-imports.carol', '{not json');
    expect(readRecentImports('carol')).toEqual([]);
    localStorage.setItem('lockit.recent-imports.carol', JSON.stringify([{ batchId: 'x' }]));
    expect(readRecentImports('carol')).toEqual([]);
  });
});

describe('the ids a recent import keeps for its undo', () => {
  const uuid = (n: number) => `0f1e2d3c-4b5a-4697-8877-${String(n).padStart(12, '0')}`;

  it('packs UUIDs into 22 characters each and unpacks them unchanged', () => {
    const ids = [uuid(1), uuid(2), 'ffffffff-ffff-4fff-bfff-ffffffffffff'];
    const packed = packIds(ids);
    expect(packed).toHaveLength(66);
    expect(unpackIds(packed)).toEqual(ids);
    expect(unpackIds(packIds([]))).toEqual([]);
  });

  it('keeps them with the record, and drops them from the oldest records first past the cap', () => {
    const many = Array.from({ length: MAX_KEPT_IDS / 2 }, (_, n) => uuid(n));
    rememberImport('dave', { ...batch(1), ids: packIds(many) });
    rememberImport('dave', { ...batch(2), ids: packIds(many) });
    rememberImport('dave', { ...batch(3), ids: packIds([uuid(7)]) });
    const held = readRecentImports('dave');
    expect(held.map((b) => b.count)).toEqual([3, 2, 1]);
    expect(unpackIds(held[0]!.ids!)).toEqual([uuid(7)]);
    expect(held[1]!.ids).toBeDefined();
    expect(held[2]!.ids).toBeUndefined();
  });

  it('reads a record whose ids are not packed ids as damaged', () => {
    localStorage.setItem('lockit.recent-imports.erin', JSON.stringify([{ ...batch(1), ids: 'not ids!' }]));
    expect(readRecentImports('erin')).toEqual([]);
  });
});
