import { emptyTransferItem, type TransferItem } from '@lockit/transfer';
import { describe, expect, it } from 'vitest';
import type { OpenEntry } from '@lockit/client-core';
import { countPlan, planImport } from './import-plan';

const login = (name: string, host: string, username: string): TransferItem => ({
  ...emptyTransferItem('login', name),
  urls: [`https://${host}`],
  username,
  password: 'p',
});
const existing = [
  { status: 'open', id: 'e1', type: 'login', urls: ['https://ovh.com'], username: 'one', deletedAt: null },
] as OpenEntry[];

describe('the import preview', () => {
  it('counts items by type, duplicates under each choice, skipped rows with reasons, custom fields and files', async () => {
    const items: TransferItem[] = [
      { ...login('OVH one', 'ovh.com', 'one'), attachments: [{ name: 'a.pdf', bytes: new Uint8Array(3) }] },
      { ...login('OVH two', 'ovh.com', 'two'), attachments: [{ name: 'b.pdf', bytes: new Uint8Array(1) }] },
      { ...emptyTransferItem('note', 'Note'), notes: 'n', fields: [{ label: 'Extra', kind: 'text', value: 'v' }] },
      { ...emptyTransferItem('note', 'Huge'), notes: 'x'.repeat(10_001) },
      {
        ...emptyTransferItem('card', 'Visa'),
        card: { holder: '', brand: '', number: '4111', code: '', expMonth: '', expYear: '' },
      },
    ];
    const plan = await planImport(
      { format: 'bitwarden-json', items, skipped: [{ line: 7, reason: 'Line 7: the row is empty.' }] },
      existing,
      'Imported from X 2025-01-01',
    );
    expect(plan.items.map((p) => p.duplicateOf?.id ?? null)).toEqual(['e1', null, null, null]);
    expect(plan.skipped).toEqual([
      { line: 7, reason: 'Line 7: the row is empty.' },
      { line: null, reason: 'Item 4 ("Huge"): The notes is longer than 10000 characters.' },
    ]);

    const skip = countPlan(plan, 'skip', new Map());
    expect(skip).toMatchObject({
      create: { login: 1, note: 1, card: 1, identity: 0 },
      createTotal: 3,
      update: 0,
      skipDuplicates: 1,
    });
    expect(skip.duplicates).toBe(1);
    expect(skip.skipped).toBe(2);
    expect(skip.fields).toEqual([{ label: 'Extra', count: 1 }]);
    // Files go with the items created or updated, not with a skipped duplicate.
    expect(skip.files).toBe(1);

    expect(countPlan(plan, 'keep-both', new Map())).toMatchObject({ createTotal: 4, update: 0, skipDuplicates: 0 });
    expect(countPlan(plan, 'skip', new Map([[0, 'update']]))).toMatchObject({
      createTotal: 3,
      update: 1,
      skipDuplicates: 0,
      files: 2,
    });
  });
});
