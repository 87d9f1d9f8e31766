import { generateVaultKeyBytes, importVaultKey, newEntryId } from '@lockit/crypto';
import { describe, expect, it } from 'vitest';
import { openEntry } from '@lockit/client-core';
import { emptyDraft, openDraft } from '@lockit/client-core';
import { sealEntriesInWorkers } from './seal-entries-in-workers';
import type { EntryDraft } from '@lockit/client-core';

const login = (n: number): EntryDraft => ({
  ...emptyDraft('login'),
  serviceName: `Site ${n}`,
  username: `user${n}`,
  password: `pass-${n}`,
  urls: [`https://site${n}.example`],
});

describe('sealEntriesInWorkers (on the page, where workers are unavailable)', () => {
  it('seals every draft in order under its own id, each opening back to its draft', async () => {
    const key = await importVaultKey(generateVaultKeyBytes());
    const items = Array.from({ length: 45 }, (_, n) => ({ id: newEntryId(), draft: login(n) }));
    const progress: number[] = [];
    const sealed = await sealEntriesInWorkers(key, items, { onProgress: (count) => progress.push(count) });

    expect(sealed.map((entry) => entry.id)).toEqual(items.map((item) => item.id));
    expect(progress.reduce((a, b) => a + b, 0)).toBe(45);
    for (const n of [0, 22, 44]) {
      const opened = await openEntry(key, { ...sealed[n]!, revision: 1, createdAt: 'c', updatedAt: 'u', deletedAt: null });
      if (opened?.status !== 'open') throw new Error('did not open');
      expect(await openDraft(key, opened)).toMatchObject({ serviceName: `Site ${n}`, password: `pass-${n}` });
    }
  });

  it('refuses the whole call with the reason when one draft cannot be sealed', async () => {
    const key = await importVaultKey(generateVaultKeyBytes());
    const items = [login(1), { ...login(2), serviceName: '   ' }].map((draft) => ({ id: newEntryId(), draft }));
    await expect(sealEntriesInWorkers(key, items)).rejects.toThrow('Enter a name for this entry.');
  });
});
