import { apiPaths, formatVaultState, parseVaultState } from '@lockit/contract';
import { sealVaultState } from '@lockit/crypto';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { deferred } from '@/testing/deferred';
import { fakeApi, route, signedInRoutes, type FakeAnswer } from '@/testing/fake-api';
import { Harness, current, openEntryNamed } from '@/testing/entry-actions-harness';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import {
  fakeEntryRoutes,
  sealedEntries,
  sealedEntry,
  sealedFolder,
  unlockedKeyring,
  type PlainEntry,
} from '@/testing/vault-fixtures';
import { stateDescribes, stateOfStore, withVaultState } from '@/testing/vault-state-routes';
import { VaultPage } from '../components/vault-page';
import { emptyDraft } from '@lockit/client-core';
import { USE_SERVER_COPY } from './integrity-alert';
import { INTEGRITY_ALERT_HEADING } from './integrity-report-text';
import { rememberedVaultCounter, rememberVaultCounter } from '@/testing/device-memory-by-name';
import { INTEGRITY_REFUSED } from '@lockit/client-core';
import { loadVaultSnapshot } from '@lockit/client-core';
import { api } from '@/lib/http';
import { saveVaultManifest } from '@lockit/client-core';
import { deviceMemory } from '@/lib/device-memory';
import { vaultIntegrityOf } from '@/lib/vault-integrity-of';

const GITHUB: PlainEntry = { serviceName: 'GitHub', username: 'alice', password: 'gh' };
const BANK: PlainEntry = { serviceName: 'Bank', username: 'alice', password: 'bank' };

/** The state a browser sealed for exactly what `server` holds now, at `counter`. */
async function stateOf(integrityKey: CryptoKey, server: ReturnType<typeof fakeEntryRoutes>, counter: number) {
  const body = await stateOfStore(integrityKey, server.store.values(), server.folders.values());
  return formatVaultState(await sealVaultState(integrityKey, { counter, ...body }));
}

/**
 * `username`: the report tests use an account of their own, so that no manifest a tracker of
 * an earlier test writes late (it is debounced) lands on theirs.
 */
async function setUp({ withheld = false, initialCounter = 0, username = 'alice' } = {}) {
  const { keyring, vault } = await unlockedKeyring(username);
  const entries = await sealedEntries(vault.vaultKey, [GITHUB, BANK]);
  const folder = await sealedFolder(vault.vaultKey, 'Work');
  const server = fakeEntryRoutes(entries, {}, [folder]);
  const initial = initialCounter === 0 ? null : await stateOf(vault.integrityKey, server, initialCounter);
  // A server that withholds Bank while serving the state that holds it.
  if (withheld) server.store.delete(entries[1]!.id);
  const stateful = withVaultState(server.routes, initial);
  const api = fakeApi({
    ...signedInRoutes({ username, email: `${username}@example.com`, fullname: username }),
    ...stateful.routes,
  });
  return { keyring, vault, entries, folder, server, stateful, api };
}

async function openHarness(setup: Awaited<ReturnType<typeof setUp>>) {
  const app = renderApp('/harness', {
    routes: [{ path: '/harness', element: <Harness vaultKey={setup.vault.vaultKey} /> }],
    keyring: setup.keyring,
  });
  await screen.findByRole('button', { name: 'Trash GitHub' });
  return app;
}

const counterOf = (state: string | null) => (state === null ? 0 : parseVaultState(state)!.counter);

describe('Whole-vault integrity: the first state', () => {
  it('makes the first state of a vault that has none from what was served, and remembers its counter', async () => {
    const setup = await setUp();
    await openHarness(setup);
    await waitFor(() => expect(setup.stateful.held.state).not.toBeNull());
    expect(counterOf(setup.stateful.held.state)).toBe(1);
    expect(
      await stateDescribes(
        setup.vault.integrityKey,
        setup.stateful.held.state,
        setup.server.store.values(),
        setup.server.folders.values(),
      ),
    ).toBe(true);
    await waitFor(async () => expect(await rememberedVaultCounter('alice')).toBe(1));
  });
});

describe('Whole-vault integrity: a write before the check', () => {
  it('an entry added while the list loads (no state yet) is part of the first state', async () => {
    const setup = await setUp();
    const list = deferred<FakeAnswer>();
    const listRoute = setup.stateful.routes[route('GET', apiPaths.listEntries)]!;
    let first = true;
    setup.api.set(route('GET', apiPaths.listEntries), async (request) => {
      if (!first) return typeof listRoute === 'function' ? listRoute(request) : listRoute;
      first = false;
      // The list as it was when asked, sent only after the add landed.
      const answer = typeof listRoute === 'function' ? await listRoute(request) : listRoute;
      await list.promise;
      return answer;
    });
    renderApp('/harness', {
      routes: [{ path: '/harness', element: <Harness vaultKey={setup.vault.vaultKey} /> }],
      keyring: setup.keyring,
    });
    await waitFor(() => expect(current().actions).toBeDefined());
    const result = await current().actions.add({ ...emptyDraft(), serviceName: 'Early', username: 'e', password: 'e' });
    expect(result).toMatchObject({ ok: true });
    list.resolve({ status: 200 });
    await waitFor(() => expect(setup.stateful.held.state).not.toBeNull());
    expect(setup.server.store.size).toBe(3);
    expect(
      await stateDescribes(
        setup.vault.integrityKey,
        setup.stateful.held.state,
        setup.server.store.values(),
        setup.server.folders.values(),
      ),
    ).toBe(true);
  });
});

describe('Whole-vault integrity: writes', () => {
  it('every write carries the next state, which a check from scratch over the new vault accepts', async () => {
    const setup = await setUp({ initialCounter: 7 });
    await openHarness(setup);
    const { integrityKey } = setup.vault;
    const describesStore = () =>
      stateDescribes(integrityKey, setup.stateful.held.state, setup.server.store.values(), setup.server.folders.values());
    let counter = 7;
    const expectStep = async (result: { ok: boolean }) => {
      expect(result).toMatchObject({ ok: true });
      counter += 1;
      expect(counterOf(setup.stateful.held.state)).toBe(counter);
      expect(await describesStore()).toBe(true);
    };

    await waitFor(() => expect(current().actions).toBeDefined());
    const draft = await current().actions.openDraft(openEntryNamed('GitHub'));
    await expectStep(await current().actions.add({ ...draft, serviceName: 'Mail' }));
    await waitFor(() => expect(openEntryNamed('Mail')).toBeDefined());
    await expectStep(await current().actions.save(openEntryNamed('GitHub'), { ...draft, password: 'new' }));
    await waitFor(() => expect(openEntryNamed('GitHub').revision).toBe(2));
    await expectStep(await current().actions.trash(openEntryNamed('Bank')));
    await waitFor(() => expect(openEntryNamed('Bank').deletedAt).not.toBeNull());
    await expectStep(await current().actions.restore(openEntryNamed('Bank')));
    const added = await current().actions.addFolder('Home');
    expect(added.ok).toBe(true);
    counter += 1;
    expect(await describesStore()).toBe(true);
    const work = current().folders.find((folder) => folder.name === 'Work')!;
    const renamed = await current().actions.renameFolder(work, 'Job');
    expect(renamed.ok).toBe(true);
    counter += 1;
    expect(await describesStore()).toBe(true);
    await expectStep(await current().actions.deleteFolder(current().folders.find((folder) => folder.name === 'Home')!));
    const sent = setup.api.requests.filter((request) => request.headers['x-lockit-vault-state'] !== undefined);
    expect(sent.map((request) => counterOf(request.headers['x-lockit-vault-state']!))).toEqual([8, 9, 10, 11, 12, 13, 14]);
  });

  it('another device wrote first (409 vault-state-stale): fetches the vault again, checks it and sends the change on top', async () => {
    const setup = await setUp({ initialCounter: 3 });
    await openHarness(setup);
    await waitFor(() => expect(current().actions).toBeDefined());
    const draft = await current().actions.openDraft(openEntryNamed('GitHub'));
    // Another device adds an entry, with the state after it.
    const theirs = await sealedEntry(setup.vault.vaultKey, { serviceName: 'Theirs', username: 'bob', password: 'x' });
    setup.server.store.set(theirs.id, theirs);
    setup.stateful.held.state = await stateOf(setup.vault.integrityKey, setup.server, 4);
    const listsBefore = setup.api.to('GET', apiPaths.listEntries).length;

    expect(await current().actions.add({ ...draft, serviceName: 'Mine' })).toMatchObject({ ok: true });

    const adds = setup.api.to('POST', apiPaths.addEntry);
    expect(adds.map((request) => counterOf(request.headers['x-lockit-vault-state']!))).toEqual([4, 5]);
    expect(setup.api.to('GET', apiPaths.listEntries).length).toBe(listsBefore + 1);
    expect(setup.server.store.size).toBe(4);
    expect(
      await stateDescribes(
        setup.vault.integrityKey,
        setup.stateful.held.state,
        setup.server.store.values(),
        setup.server.folders.values(),
      ),
    ).toBe(true);
  });

  it('after a failed check refuses every write with a plain message, and sends nothing', async () => {
    const setup = await setUp({ withheld: true, initialCounter: 2 });
    const app = renderApp('/harness', {
      routes: [{ path: '/harness', element: <Harness vaultKey={setup.vault.vaultKey} /> }],
      keyring: setup.keyring,
    });
    await screen.findByRole('button', { name: 'Trash GitHub' });
    // The mismatch is fetched again once (a write may have raced the fetches) before it counts.
    await waitFor(() => expect(setup.api.to('GET', apiPaths.listEntries)).toHaveLength(2));
    const draft = await current().actions.openDraft(openEntryNamed('GitHub'));
    const result = await current().actions.add({ ...draft, serviceName: 'Mail' });
    expect(result).toEqual({ ok: false, message: `${INTEGRITY_REFUSED} Your changes are still in the form.` });
    await app.user.click(screen.getByRole('button', { name: 'Trash GitHub' }));
    expect(await screen.findByLabelText('Result')).toHaveTextContent(INTEGRITY_REFUSED);
    expect(setup.api.requests.filter((request) => request.method !== 'GET' && request.path !== apiPaths.verifySession)).toEqual(
      [],
    );
  });
});

describe('Whole-vault integrity: the report', () => {
  it('shows the alert above the list, naming the withheld entry from the manifest; served entries still show', async () => {
    const setup = await setUp({ withheld: true, initialCounter: 2, username: 'carol' });
    const [github, bank] = setup.entries;
    await saveVaultManifest(deviceMemory, setup.vault.vaultKey, setup.vault.account, {
      counter: 2,
      entries: [
        { id: github!.id, revision: 1, name: 'GitHub' },
        { id: bank!.id, revision: 1, name: 'Bank' },
      ],
      folders: [{ id: setup.folder.id, revision: 1, name: 'Work' }],
    });
    renderApp('/vault', { routes: pageRoutes({ '/vault': <VaultPage /> }), keyring: setup.keyring });
    const alert = await screen.findByRole('alert');
    expect(alert.firstElementChild).toHaveTextContent(new RegExp(`^${INTEGRITY_ALERT_HEADING.replace(/[.']/g, '\\$&')}$`));
    expect(alert).toHaveTextContent('Missing: Bank.');
    expect(alert).toHaveTextContent(INTEGRITY_REFUSED);
    expect(screen.getByRole('listitem', { name: 'GitHub' })).toBeInTheDocument();
  });

  it('names what this tab saw at its last check even when its manifest is not stored (not yet, or storage refuses it)', async () => {
    const setItem = Storage.prototype.setItem;
    const refuseManifest = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(function (this: Storage, key, value) {
      if (key.startsWith('lockit.vaultManifest.')) throw new DOMException('full', 'QuotaExceededError');
      setItem.call(this, key, value);
    });
    try {
      const setup = await setUp({ initialCounter: 2, username: 'frank' });
      await openHarness(setup);
      await waitFor(async () => expect(await rememberedVaultCounter('frank')).toBe(2));
      const integrity = vaultIntegrityOf(setup.keyring)!;
      // The server now withholds Bank while serving the state that holds it.
      setup.server.store.delete(setup.entries[1]!.id);
      await integrity.check(await loadVaultSnapshot(api, setup.vault.integrityKey, setup.vault.vaultKey, new Map()));
      expect(integrity.report?.missing).toEqual(['Bank']);
    } finally {
      refuseManifest.mockRestore();
    }
  });

  it('says so when the server sends an older state than this browser saw', async () => {
    const setup = await setUp({ initialCounter: 40, username: 'dave' });
    await rememberVaultCounter('dave', 42);
    renderApp('/vault', { routes: pageRoutes({ '/vault': <VaultPage /> }), keyring: setup.keyring });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This browser saw a newer copy (change 42; the server sent change 40).',
    );
  });

  it("offers the server's whole older copy (a restored backup) and takes it only after the person confirms", async () => {
    const setup = await setUp({ initialCounter: 40, username: 'grace' });
    await rememberVaultCounter('grace', 42);
    const app = renderApp('/vault', { routes: pageRoutes({ '/vault': <VaultPage /> }), keyring: setup.keyring });
    const alert = await screen.findByRole('alert');
    await app.user.click(within(alert).getByRole('button', { name: `${USE_SERVER_COPY}…` }));
    const dialog = screen.getByRole('dialog', { name: "Use the server's older copy?" });
    expect(dialog).toHaveTextContent('This browser saw your vault at change 42; the server now has change 40.');
    // Cancel keeps everything as it was.
    await app.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await rememberedVaultCounter('grace')).toBe(42);
    expect(screen.getByRole('alert')).toHaveTextContent(INTEGRITY_ALERT_HEADING);

    await app.user.click(within(screen.getByRole('alert')).getByRole('button', { name: `${USE_SERVER_COPY}…` }));
    await app.user.click(
      within(screen.getByRole('dialog', { name: "Use the server's older copy?" })).getByRole('button', {
        name: USE_SERVER_COPY,
      }),
    );
    await waitFor(() => expect(screen.queryByText(INTEGRITY_ALERT_HEADING)).not.toBeInTheDocument());
    expect(await rememberedVaultCounter('grace')).toBe(40);
    expect(vaultIntegrityOf(setup.keyring)!.report).toBeNull();
  });

  it('offers no such choice when the served vault is not whole (an entry withheld), even at an older counter', async () => {
    const setup = await setUp({ initialCounter: 40, withheld: true, username: 'heidi' });
    await rememberVaultCounter('heidi', 42);
    renderApp('/vault', { routes: pageRoutes({ '/vault': <VaultPage /> }), keyring: setup.keyring });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This browser saw a newer copy (change 42; the server sent change 40).',
    );
    expect(screen.queryByRole('button', { name: `${USE_SERVER_COPY}…` })).not.toBeInTheDocument();
    expect(vaultIntegrityOf(setup.keyring)!.report?.olderButWhole).toBe(false);
    // Asked anyway (not through the page), it changes nothing.
    await vaultIntegrityOf(setup.keyring)!.acceptServedCopy();
    expect(await rememberedVaultCounter('heidi')).toBe(42);
  });

  it('cannot be skipped by failing the folders call: the check counts no folders, and the vault holds one', async () => {
    const setup = await setUp({ initialCounter: 3, username: 'erin' });
    setup.api.set(route('GET', apiPaths.folders), { status: 500, body: { message: 'Internal Server Error' } });
    renderApp('/vault', { routes: pageRoutes({ '/vault': <VaultPage /> }), keyring: setup.keyring });
    expect(await screen.findByRole('alert')).toHaveTextContent(INTEGRITY_ALERT_HEADING);
  });
});
