import { apiPaths, type EntryVersionWire } from '@lockit/contract';
import { describe, expect, it } from 'vitest';
import { fakeApi, route } from '@/testing/fake-api';
import { fakeEntryRoutes, sealedEntry, sealedFolder, unlockedKeyring } from '@/testing/vault-fixtures';
import { collectVault } from './collect-vault';

/** A stored vault: a login in a folder, a card, one in Trash, one edited once, one whose secrets were swapped. */
async function storedVault() {
  const { vault } = await unlockedKeyring();
  const key = vault.vaultKey;
  const folder = await sealedFolder(key, 'Work');
  const login = await sealedEntry(key, {
    serviceName: 'Mail',
    username: 'alice',
    password: 'alpha-pass',
    notes: 'two\nlines',
    totp: 'JBSWY3DPEHPK3PXP',
    folderId: folder.id,
    tags: ['daily'],
  });
  const card = await sealedEntry(key, {
    type: 'card',
    serviceName: 'Visa',
    username: '',
    password: '',
    card: { holder: 'Alice', brand: 'Visa', last4: '1111', expMonth: '04', expYear: '2031' },
    cardSecret: { number: '4111111111111111', code: '123' },
  });
  const trashed = await sealedEntry(
    key,
    { serviceName: 'Old', username: 'a', password: 'trashed-pass' },
    {
      deletedAt: '2025-02-01T00:00:00.000Z',
    },
  );
  const first = await sealedEntry(key, { serviceName: 'Bank', username: 'alice', password: 'old-pass' });
  const edited = {
    ...(await sealedEntry(key, { serviceName: 'Bank', username: 'alice', password: 'new-pass' }, { id: first.id })),
    revision: 2,
  };
  // The password of another entry under this one's: its list fields open, its secrets do not.
  const swapped = {
    ...(await sealedEntry(key, { serviceName: 'Swapped', username: 'b', password: 'x' })),
    password: login.password,
  };
  const { routes, history } = fakeEntryRoutes([login, card, trashed, edited, swapped], {}, [folder]);
  const { id: _id, createdAt: _c, updatedAt, deletedAt: _d, ...texts } = first;
  const version: EntryVersionWire = { ...texts, savedAt: updatedAt, replacedAt: edited.updatedAt };
  history.set(first.id, [version]);
  return { key, routes, login, edited };
}

describe('collectVault', () => {
  it('collects every live item whole, with its folder, secrets and history; counts the damaged', async () => {
    const { key, routes, edited } = await storedVault();
    const api = fakeApi(routes);
    const progress: { done: number; total: number }[] = [];
    const collected = await collectVault(key, { includeTrash: false, onProgress: (step) => progress.push(step) });

    const byName = new Map(collected.contents.items.map((item) => [item.name, item]));
    expect([...byName.keys()].sort()).toEqual(['Bank', 'Mail', 'Visa']);
    expect(byName.get('Mail')).toMatchObject({
      password: 'alpha-pass',
      notes: 'two\nlines',
      totp: 'JBSWY3DPEHPK3PXP',
      folder: 'Work',
      tags: ['daily'],
      history: [],
    });
    expect(byName.get('Visa')?.card).toMatchObject({ number: '4111111111111111', code: '123', holder: 'Alice' });
    expect(byName.get('Bank')?.password).toBe('new-pass');
    expect(byName.get('Bank')?.history.map((version) => version.password)).toEqual(['old-pass']);
    expect(collected.contents.folders).toEqual(['Work']);
    expect(collected.damagedItems).toBe(1);
    expect(collected.damagedVersions).toBe(0);
    // One call for the histories, asking only for the item ever changed.
    const historyCalls = api.requests.filter((request) => request.path === apiPaths.entryHistories);
    expect(historyCalls.map((request) => request.body)).toEqual([{ ids: [edited.id] }]);
    expect(progress.at(-1)).toEqual({ done: 5, total: 5 });
  });

  it('adds the items in Trash, with when they were trashed, only when asked', async () => {
    const { key, routes } = await storedVault();
    fakeApi(routes);
    const collected = await collectVault(key, { includeTrash: true });
    const old = collected.contents.items.find((item) => item.name === 'Old');
    expect(old).toMatchObject({ password: 'trashed-pass', trashedAt: '2025-02-01T00:00:00.000Z' });
    expect(collected.contents.includesTrash).toBe(true);
  });

  it('leaves out an earlier version that does not decrypt, and says how many', async () => {
    const { key, routes, login, edited } = await storedVault();
    const { id: _id, createdAt: _c, updatedAt, deletedAt: _d, ...texts } = edited;
    // An earlier version whose password is another entry's ciphertext.
    const moved: EntryVersionWire = { ...texts, password: login.password, savedAt: updatedAt, replacedAt: updatedAt };
    fakeApi({
      ...routes,
      [route('POST', apiPaths.entryHistories)]: {
        status: 200,
        body: { message: 'Success', data: [{ id: edited.id, versions: [moved] }] },
      },
    });
    const collected = await collectVault(key, { includeTrash: false });
    expect(collected.damagedVersions).toBe(1);
    expect(collected.contents.items.find((item) => item.name === 'Bank')?.history).toEqual([]);
  });

  it('fails, rather than export an item without its history, when the server withholds one', async () => {
    const { key, routes } = await storedVault();
    fakeApi({ ...routes, [route('POST', apiPaths.entryHistories)]: { status: 200, body: { message: 'Success', data: [] } } });
    await expect(collectVault(key, { includeTrash: false })).rejects.toThrow('The server did not send the history of 1 item(s).');
  });
});
