import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { StoredEntry } from '../db/repositories/entries-repository';
import { toEntryWire } from '../routes/entries/entry-wire';
import { buildVaultList } from './vault-list-builder';

const entry = (n: number): StoredEntry => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  service_name: `v1.iv${n}.ct"quoted"\\${n}`,
  username: `v1.u.${n}`,
  password: `v1.p.${n}`,
  url: n % 2 === 0 ? null : `v1.url.${n}`,
  notes: null,
  overview: `v1.o.${'x'.repeat(n % 7)}`,
  details: null,
  revision: 1 + (n % 3),
  created_at: 1_700_000_000_000 + Math.floor(n / 2), // pairs share a time: the id breaks the tie
  updated_at: 1_700_000_000_000 + n,
  deleted_at: n % 5 === 0 ? 1_700_000_100_000 : null,
});

/** A store read the way the repository pages it: (created_at, id) after the cursor. */
function pagedStore(rows: StoredEntry[]) {
  const pages: number[] = [];
  return {
    pages,
    source: {
      async page(after: { createdAt: number; id: string } | undefined, limit: number) {
        const rest = rows.filter(
          (row) => !after || row.created_at > after.createdAt || (row.created_at === after.createdAt && row.id > after.id),
        );
        const page = rest.slice(0, limit);
        pages.push(page.length);
        return page;
      },
    },
  };
}

describe('building the vault list a page at a time', () => {
  for (const count of [0, 1, 7, 10, 11, 25]) {
    it(`${count} entries in pages of 5: the same bytes and SHA-256 as serializing the whole list at once`, async () => {
      const rows = Array.from({ length: count }, (_, n) => entry(n));
      const { source, pages } = pagedStore(rows);
      const built = await buildVaultList('Success', source, toEntryWire, 5);
      const whole = Buffer.from(JSON.stringify({ message: 'Success', data: rows.map(toEntryWire) }));
      expect(built.body.equals(whole)).toBe(true);
      expect(built.sha256).toBe(createHash('sha256').update(whole).digest('base64url'));
      expect(pages.reduce((a, b) => a + b, 0)).toBe(count);
      expect(pages.length).toBe(Math.floor(count / 5) + 1);
    });
  }

  it('lets other work run between pages', async () => {
    const rows = Array.from({ length: 20 }, (_, n) => entry(n));
    const { source } = pagedStore(rows);
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 0);
    const slowSource = {
      async page(after: { createdAt: number; id: string } | undefined, limit: number) {
        const started = Date.now();
        while (Date.now() - started < 3); // a synchronous read, as SQLite's is
        return source.page(after, limit);
      },
    };
    await buildVaultList('Success', slowSource, toEntryWire, 2);
    clearInterval(ticker);
    expect(ticks).toBeGreaterThanOrEqual(5);
  });
});
