import { describe, expect, it } from 'vitest';
import { forgetImport, readRecentImports, rememberImport } from './recent-imports';

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
