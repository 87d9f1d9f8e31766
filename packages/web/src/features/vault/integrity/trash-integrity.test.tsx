import { apiPaths, formatVaultState, parseVaultState, TRASHED_AT_HEADER } from '@lockit/contract';
import { sealVaultState } from '@lockit/crypto';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, route, signedInRoutes } from '@/testing/fake-api';
import { Harness, current, openEntryNamed } from '@/testing/entry-actions-harness';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { fakeEntryRoutes, sealedEntry, unlockedKeyring, type PlainEntry } from '@/testing/vault-fixtures';
import { stateDescribes, stateOfStore, withVaultState } from '@/testing/vault-state-routes';
import { VaultPage } from '../components/vault-page';
import { INTEGRITY_ALERT_HEADING } from './integrity-report-text';
import { rememberedVaultCounter } from '@/testing/device-memory-by-name';
import { purgeExpiredTrash } from './purge-expired-trash';
import { saveVaultManifest } from '@lockit/client-core';
import { deviceMemory } from '@/lib/device-memory';
import { vaultIntegrityOf } from '@/lib/vault-integrity-of';

/**
 * Trash inside the whole-vault integrity set (decision 0061): every move in and out of Trash
 * carries the next state; an entry dropped from Trash, or served with another trash time, fails
 * the check; the browser itself purges what has been in Trash past the retention term, never
 * sooner than its floor, whatever the server says.
 */
const DAY = 24 * 60 * 60 * 1000;
const GITHUB: PlainEntry = { serviceName: 'GitHub', username: 'alice', password: 'gh' };
const BANK: PlainEntry = { serviceName: 'Bank', username: 'alice', password: 'bank' };
const MAIL: PlainEntry = { serviceName: 'Mail', username: 'alice', password: 'mail' };

const counterOf = (state: string | null) => (state === null ? 0 : parseVaultState(state)!.counter);

/**
 * GitHub live, Bank in Trash since `bankAgo`, Mail in Trash since a day, under a state sealed
 * for exactly that at counter 5 (version 2; `version: 1`, one that does not cover Trash), and a
 * server whose Trash term is `retentionDays`.
 */
async function setUp(username: string, { bankAgo = DAY, retentionDays = 30, version = 2 } = {}) {
  const { keyring, vault } = await unlockedKeyring(username);
  const trashed = (ago: number) => ({ revision: 2, deletedAt: new Date(Date.now() - ago).toISOString() });
  const entries = [
    await sealedEntry(vault.vaultKey, GITHUB),
    await sealedEntry(vault.vaultKey, BANK, trashed(bankAgo)),
    await sealedEntry(vault.vaultKey, MAIL, trashed(DAY)),
  ];
  const server = fakeEntryRoutes(entries, {}, []);
  const { trashed: inTrash, ...live } = await stateOfStore(vault.integrityKey, server.store.values(), [], version === 2);
  const body = version === 2 ? { ...live, trashed: inTrash } : live;
  const initial = formatVaultState(await sealVaultState(vault.integrityKey, { counter: 5, ...body }));
  const stateful = withVaultState(server.routes, initial);
  const api = fakeApi({
    ...signedInRoutes({ username, email: `${username}@example.com`, fullname: username }),
    ...stateful.routes,
    [route('GET', apiPaths.publicConfig)]: {
      status: 200,
      body: { message: 'OK', data: { breachCheckUrl: null, trashRetentionDays: retentionDays } },
    },
  });
  const describesStore = () => stateDescribes(vault.integrityKey, stateful.held.state, server.store.values(), []);
  return { keyring, vault, entries, server, stateful, api, describesStore };
}

async function openHarness(setup: Awaited<ReturnType<typeof setUp>>) {
  renderApp('/harness', {
    routes: [{ path: '/harness', element: <Harness vaultKey={setup.vault.vaultKey} /> }],
    keyring: setup.keyring,
  });
  await screen.findByRole('button', { name: 'Trash GitHub' });
  await waitFor(() => expect(current().actions).toBeDefined());
}

const purges = (api: ReturnType<typeof fakeApi>) =>
  api.requests.filter((request) => request.path.startsWith(apiPaths.purgeEntry('')));

describe('Trash in the whole-vault integrity set', () => {
  it('moves to Trash, edits in Trash, restores and purges, each with the next state, which a check from scratch, Trash included, accepts', async () => {
    const setup = await setUp('ivan');
    await openHarness(setup);
    let counter = 5;
    const expectStep = async (result: { ok: boolean }) => {
      expect(result).toMatchObject({ ok: true });
      counter += 1;
      expect(parseVaultState(setup.stateful.held.state!)).toMatchObject({ counter });
      expect(await setup.describesStore()).toBe(true);
    };

    await expectStep(await current().actions.trash(openEntryNamed('GitHub')));
    const moved = setup.api.to('DELETE', apiPaths.deleteEntry(setup.entries[0]!.id)).at(-1)!;
    const sealedAt = Number(moved.headers[TRASHED_AT_HEADER]);
    expect(setup.server.store.get(setup.entries[0]!.id)!.deletedAt).toBe(new Date(sealedAt).toISOString());
    await waitFor(() => expect(openEntryNamed('GitHub').deletedAt).not.toBeNull());

    const draft = await current().actions.openDraft(openEntryNamed('Bank'));
    await expectStep(await current().actions.save(openEntryNamed('Bank'), { ...draft, password: 'edited in Trash' }));
    await waitFor(() => expect(openEntryNamed('Bank').revision).toBe(3));
    await expectStep(await current().actions.restore(openEntryNamed('Bank')));
    await waitFor(() => expect(openEntryNamed('Bank').deletedAt).toBeNull());
    await expectStep(await current().actions.purge(openEntryNamed('Mail')));
    expect(purges(setup.api).map((request) => counterOf(request.headers['x-lockit-vault-state']!))).toEqual([counter]);
    expect(parseVaultState(setup.stateful.held.state!)).toMatchObject({ entries: 1, trashed: 1 });
  });

  it('replaces a version 1 state (Trash not covered) by a version 2 one at its next write, counting Trash as served', async () => {
    const setup = await setUp('judy', { version: 1 });
    await openHarness(setup);
    expect(parseVaultState(setup.stateful.held.state!)!.trashed).toBeUndefined();
    expect(await current().actions.trash(openEntryNamed('GitHub'))).toMatchObject({ ok: true });
    expect(parseVaultState(setup.stateful.held.state!)).toMatchObject({ counter: 6, entries: 0, trashed: 3 });
    expect(await setup.describesStore()).toBe(true);
  });

  it('names an entry dropped from Trash above the list, from the manifest, and writes nothing', async () => {
    const setup = await setUp('kate');
    const [github, bank, mail] = setup.entries;
    await saveVaultManifest(deviceMemory, setup.vault.vaultKey, setup.vault.account, {
      counter: 5,
      entries: [{ id: github!.id, revision: 1, name: 'GitHub' }],
      folders: [],
      trashed: [
        { id: bank!.id, revision: 2, name: 'Bank' },
        { id: mail!.id, revision: 2, name: 'Mail' },
      ],
    });
    setup.server.store.delete(bank!.id);
    renderApp('/vault', { routes: pageRoutes({ '/vault': <VaultPage /> }), keyring: setup.keyring });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(INTEGRITY_ALERT_HEADING);
    expect(alert).toHaveTextContent('Missing from Trash: Bank.');
    expect(setup.api.requests.filter((request) => request.method !== 'GET' && request.path !== apiPaths.verifySession)).toEqual(
      [],
    );
  });

  it('fails the check when a trashed entry is served with another trash time (one old enough to purge), and purges nothing', async () => {
    const setup = await setUp('liam');
    const bank = setup.server.store.get(setup.entries[1]!.id)!;
    setup.server.store.set(bank.id, { ...bank, deletedAt: new Date(Date.now() - 90 * DAY).toISOString() });
    renderApp('/vault', { routes: pageRoutes({ '/vault': <VaultPage /> }), keyring: setup.keyring });
    expect(await screen.findByRole('alert')).toHaveTextContent(INTEGRITY_ALERT_HEADING);
    expect(purges(setup.api)).toEqual([]);
    expect(setup.server.store.has(bank.id)).toBe(true);
  });
});

describe('Trash past its retention term', () => {
  it('is deleted for good by the browser after a passed check, with the next state; what is younger stays', async () => {
    const setup = await setUp('mia', { bankAgo: 31 * DAY });
    await openHarness(setup);
    await waitFor(() => expect(setup.server.store.has(setup.entries[1]!.id)).toBe(false));
    expect(purges(setup.api)).toHaveLength(1);
    expect(counterOf(setup.stateful.held.state)).toBe(6);
    expect(await setup.describesStore()).toBe(true);
    expect(setup.server.store.has(setup.entries[2]!.id)).toBe(true);
    await waitFor(() => expect(current().entries.some((entry) => entry.id === setup.entries[1]!.id)).toBe(false));
  });

  it('is never purged sooner than the floor, whatever shorter term the server answers', async () => {
    const setup = await setUp('noah', { bankAgo: 29 * DAY, retentionDays: 1 });
    await openHarness(setup);
    await waitFor(async () => expect(await rememberedVaultCounter('noah')).toBe(5));
    const integrity = vaultIntegrityOf(setup.keyring)!;
    expect(await purgeExpiredTrash(integrity, () => {})).toBe(0);
    expect(purges(setup.api)).toEqual([]);
    // Past the floor, it goes.
    expect(await purgeExpiredTrash(integrity, () => {}, Date.now() + 2 * DAY)).toBe(1);
    expect(setup.server.store.has(setup.entries[1]!.id)).toBe(false);
  });

  it('keeps a longer term the server answers', async () => {
    const setup = await setUp('olga', { bankAgo: 31 * DAY, retentionDays: 60 });
    await openHarness(setup);
    await waitFor(() => expect(setup.api.to('GET', apiPaths.publicConfig)).toHaveLength(1));
    const integrity = vaultIntegrityOf(setup.keyring)!;
    expect(await purgeExpiredTrash(integrity, () => {})).toBe(0);
    expect(purges(setup.api)).toEqual([]);
    expect(await purgeExpiredTrash(integrity, () => {}, Date.now() + 30 * DAY)).toBe(1);
  });
});
