import { apiPaths, type UpdateEntryRequest } from '@lockit/contract';
import { decryptField } from '@lockit/crypto';
import { act, screen, waitFor, within } from '@testing-library/react';
import { useLayoutEffect, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fakeApi, route, routePrefix, signedInRoutes } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { advance, installFakeClockWithRealTime } from '@/testing/timers';
import {
  fakeEntryRoutes,
  openSealed,
  sealedEntry,
  sealedFolder,
  unlockedKeyring,
  type PlainEntry,
} from '@/testing/vault-fixtures';
import { ConflictDialog } from '../components/conflict-dialog';
import { EntryFormDialog } from '../components/entry-form-dialog';
import { HistoryPanel } from '../components/history-panel';
import { LEGACY_UPGRADE_DELAY_MS } from '../lib/upgrade-legacy';
import type { EntryDraft, OpenEntry, VaultEntry } from '../lib/vault-entry';
import { useEntryActions, type EntryActions } from './use-entry-actions';
import { useVaultEntries } from './use-vault-entries';

/** What the harness exposes to the test: the hooks' live values. */
let live: { entries: VaultEntry[]; folders: ReturnType<typeof useVaultEntries>['folders']; actions: EntryActions } | null = null;

/**
 * A minimal screen around the data layer (the real one is vault-view.tsx): a list with Edit,
 * Trash and History per entry, the editor, the history panel and the conflict dialog.
 */
function Harness({ vaultKey }: { vaultKey: CryptoKey }) {
  const { state, folders, dispatch } = useVaultEntries(vaultKey);
  const actions = useEntryActions(vaultKey, dispatch);
  const [editing, setEditing] = useState<{ entry: OpenEntry; draft: EntryDraft } | null>(null);
  const [history, setHistory] = useState<OpenEntry | null>(null);
  const [result, setResult] = useState('');
  const entries = state.status === 'loading' ? [] : state.entries;
  // At commit, so the test sees the values of what is on screen.
  useLayoutEffect(() => {
    live = { entries, folders, actions };
  });
  const report = (outcome: { ok: boolean; message?: string }) => setResult(outcome.ok ? 'done' : (outcome.message ?? ''));
  return (
    <>
      <ul aria-label="Entries">
        {entries.map((entry) => {
          const name = entry.status === 'open' ? entry.serviceName : `damaged ${entry.id}`;
          return (
            <li key={entry.id} aria-label={name}>
              {entry.status === 'open' &&
                `${entry.serviceName} r${entry.revision} ${entry.format}${entry.deletedAt ? ' in Trash' : ''}`}
              {entry.status === 'open' && (
                <>
                  <button
                    type="button"
                    onClick={() => void actions.openDraft(entry).then((draft) => setEditing({ entry, draft }))}
                  >
                    Edit {name}
                  </button>
                  <button type="button" onClick={() => setHistory(entry)}>
                    History {name}
                  </button>
                </>
              )}
              <button type="button" onClick={() => void actions.trash(entry).then(report)}>
                Trash {name}
              </button>
            </li>
          );
        })}
      </ul>
      <p aria-label="Result">{result}</p>
      {editing && (
        <EntryFormDialog
          mode="edit"
          initial={editing.draft}
          folders={folders}
          onSubmit={async (draft) => {
            const outcome = await actions.save(editing.entry, draft);
            if (outcome.ok) setEditing(null);
            return outcome;
          }}
          onClose={() => setEditing(null)}
        />
      )}
      {history && <HistoryPanel entry={history} actions={actions} onClose={() => setHistory(null)} />}
      {actions.conflict && <ConflictDialog conflict={actions.conflict} folders={folders} />}
    </>
  );
}

const GITHUB: PlainEntry = { serviceName: 'GitHub', username: 'alice', password: 'old-password', notes: 'first note' };
const current = () => live!;
const openEntryNamed = (name: string) =>
  current().entries.find((entry): entry is OpenEntry => entry.status === 'open' && entry.serviceName === name)!;
const puts = (api: ReturnType<typeof fakeApi>) => api.requests.filter((request) => request.method === 'PUT');

describe('useEntryActions: a save that meets a newer version', () => {
  async function setUp() {
    const { keyring, vault } = await unlockedKeyring();
    const mine = await sealedEntry(vault.vaultKey, GITHUB);
    const theirs = await sealedEntry(
      vault.vaultKey,
      { ...GITHUB, password: 'their-password', notes: 'their note' },
      { id: mine.id, revision: 2 },
    );
    live = null;
    const server = fakeEntryRoutes([mine]);
    const api = fakeApi({ ...signedInRoutes(), ...server.routes });
    const app = renderApp('/harness', {
      routes: [{ path: '/harness', element: <Harness vaultKey={vault.vaultKey} /> }],
      keyring,
    });
    await screen.findByRole('button', { name: 'Edit GitHub' });
    // Saved elsewhere meanwhile.
    server.store.set(mine.id, theirs);
    await app.user.click(screen.getByRole('button', { name: 'Edit GitHub' }));
    const editor = await screen.findByRole('dialog', { name: 'Edit Password' });
    await app.user.clear(within(editor).getByLabelText('Password'));
    await app.user.type(within(editor).getByLabelText('Password'), 'my-password');
    await app.user.type(within(editor).getByLabelText('Service'), ' (mine)');
    await app.user.click(within(editor).getByRole('button', { name: 'Save' }));
    const conflict = await screen.findByRole('dialog', { name: 'Changed elsewhere' });
    return { api, app, server, conflict, editor, id: mine.id, vaultKey: vault.vaultKey };
  }

  it('shows both versions side by side, field by field, secrets masked until asked', async () => {
    const { app, conflict } = await setUp();
    const row = (name: string) =>
      within(conflict)
        .getByRole('rowheader', { name: new RegExp(`^${name}`) })
        .closest('tr')!;
    expect(within(row('Name')).getByText('GitHub (mine)')).toBeInTheDocument();
    expect(within(row('Name')).getByText('GitHub')).toBeInTheDocument();
    expect(within(row('Name')).getByText('differs')).toBeInTheDocument();
    expect(within(row('Notes')).getByText('first note')).toBeInTheDocument();
    expect(within(row('Notes')).getByText('their note')).toBeInTheDocument();
    expect(within(row('Username')).queryByText('differs')).not.toBeInTheDocument();
    expect(within(conflict).queryByText('my-password')).not.toBeInTheDocument();
    await app.user.click(within(conflict).getByRole('button', { name: 'Show secrets' }));
    expect(within(row('Password')).getByText('my-password')).toBeInTheDocument();
    expect(within(row('Password')).getByText('their-password')).toBeInTheDocument();
  });

  it('Keep mine: saves mine on their revision (theirs goes to history), and the editor closes', async () => {
    const { api, app, server, conflict, id, vaultKey } = await setUp();
    await app.user.click(within(conflict).getByRole('button', { name: 'Keep mine' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [, second] = puts(api);
    expect((second!.body as UpdateEntryRequest).revision).toBe(2);
    expect(await openSealed(vaultKey, id, server.store.get(id)!)).toMatchObject({
      serviceName: 'GitHub (mine)',
      password: 'my-password',
    });
    expect(await openSealed(vaultKey, id, server.history.get(id)![0]!)).toMatchObject({ password: 'their-password' });
    expect(openEntryNamed('GitHub (mine)').revision).toBe(3);
  });

  it('Use theirs: keeps theirs as the current version, with mine saved into history first', async () => {
    const { api, app, server, conflict, id, vaultKey } = await setUp();
    await app.user.click(within(conflict).getByRole('button', { name: 'Use theirs' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(puts(api).map((request) => (request.body as UpdateEntryRequest).revision)).toEqual([1, 2, 3]);
    expect(await openSealed(vaultKey, id, server.store.get(id)!)).toMatchObject({
      serviceName: 'GitHub',
      password: 'their-password',
    });
    const history = await Promise.all(server.history.get(id)!.map((version) => openSealed(vaultKey, id, version)));
    expect(history.map((version) => version.password)).toEqual(['my-password', 'their-password']);
    expect(openEntryNamed('GitHub').revision).toBe(4);
  });

  it('Merge: picks each differing field from either side, then saves', async () => {
    const { app, server, conflict, id, vaultKey } = await setUp();
    await app.user.click(within(conflict).getByRole('button', { name: 'Merge' }));
    await app.user.click(within(conflict).getByLabelText('Use their password'));
    await app.user.click(within(conflict).getByLabelText('Keep my notes'));
    await app.user.click(within(conflict).getByRole('button', { name: 'Save merged version' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await openSealed(vaultKey, id, server.store.get(id)!)).toMatchObject({
      serviceName: 'GitHub (mine)',
      password: 'their-password',
      notes: 'first note',
    });
  });

  it('a newer version with the content I started from (saved again in the item format) is no conflict', async () => {
    const { keyring, vault } = await unlockedKeyring();
    const legacy = await sealedEntry(vault.vaultKey, GITHUB, { format: 'legacy' });
    live = null;
    const server = fakeEntryRoutes([legacy]);
    const api = fakeApi({ ...signedInRoutes(), ...server.routes });
    const app = renderApp('/harness', {
      routes: [{ path: '/harness', element: <Harness vaultKey={vault.vaultKey} /> }],
      keyring,
    });
    await app.user.click(await screen.findByRole('button', { name: 'Edit GitHub' }));
    const editor = await screen.findByRole('dialog', { name: 'Edit Password' });
    server.store.set(legacy.id, await sealedEntry(vault.vaultKey, GITHUB, { id: legacy.id, revision: 2 }));
    await app.user.type(within(editor).getByLabelText('Notes (optional)'), ' and more');
    await app.user.click(within(editor).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(puts(api).map((request) => (request.body as UpdateEntryRequest).revision)).toEqual([1, 2]);
    expect(await openSealed(vault.vaultKey, legacy.id, server.store.get(legacy.id)!)).toMatchObject({
      notes: 'first note and more',
    });
  });

  it('a failure while settling keeps the conflict open and says why', async () => {
    const { api, app, conflict } = await setUp();
    api.set(routePrefix('PUT', apiPaths.updateEntry('')), 'network-error');
    await app.user.click(within(conflict).getByRole('button', { name: 'Keep mine' }));
    expect(await within(conflict).findByText(/Could not save: you are offline/)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Changed elsewhere' })).toBe(conflict);
  });
});

describe('useEntryActions: delete conflict, trash, restore, purge', () => {
  async function setUpWithNewer() {
    const { keyring, vault } = await unlockedKeyring();
    const mine = await sealedEntry(vault.vaultKey, GITHUB);
    live = null;
    const server = fakeEntryRoutes([mine]);
    const api = fakeApi({ ...signedInRoutes(), ...server.routes });
    const app = renderApp('/harness', {
      routes: [{ path: '/harness', element: <Harness vaultKey={vault.vaultKey} /> }],
      keyring,
    });
    await screen.findByRole('button', { name: 'Trash GitHub' });
    server.store.set(
      mine.id,
      await sealedEntry(vault.vaultKey, { ...GITHUB, password: 'changed' }, { id: mine.id, revision: 2 }),
    );
    return { api, app, server, id: mine.id };
  }

  it('shows the conflict ("changed elsewhere"); Keep it leaves the newer version in place', async () => {
    const { api, app, server, id } = await setUpWithNewer();
    await app.user.click(screen.getByRole('button', { name: 'Trash GitHub' }));
    const conflict = await screen.findByRole('dialog', { name: 'Changed elsewhere' });
    expect(within(conflict).getByText(/changed elsewhere since you opened it/)).toBeInTheDocument();
    await app.user.click(within(conflict).getByRole('button', { name: 'Keep it' }));
    expect(await screen.findByLabelText('Result')).toHaveTextContent('Nothing was moved to Trash');
    expect(server.store.get(id)).toMatchObject({ revision: 2, deletedAt: null });
    expect(api.requests.filter((request) => request.method === 'DELETE')).toHaveLength(1);
    expect(openEntryNamed('GitHub').revision).toBe(2);
  });

  it('Move to Trash anyway trashes it on the newer revision', async () => {
    const { api, app, server, id } = await setUpWithNewer();
    await app.user.click(screen.getByRole('button', { name: 'Trash GitHub' }));
    const conflict = await screen.findByRole('dialog', { name: 'Changed elsewhere' });
    await app.user.click(within(conflict).getByRole('button', { name: 'Move to Trash anyway' }));
    await waitFor(() => expect(screen.getByLabelText('Result')).toHaveTextContent('done'));
    const deletes = api.requests.filter((request) => request.method === 'DELETE');
    expect(deletes.map((request) => request.query.get('revision'))).toEqual(['1', '2']);
    expect(server.store.get(id)?.deletedAt).not.toBeNull();
    expect(openEntryNamed('GitHub').deletedAt).not.toBeNull();
  });

  it('trash, restore and purge name their revision and keep the state in step', async () => {
    const { keyring, vault } = await unlockedKeyring();
    const wire = await sealedEntry(vault.vaultKey, GITHUB);
    live = null;
    const server = fakeEntryRoutes([wire]);
    const api = fakeApi({ ...signedInRoutes(), ...server.routes });
    renderApp('/harness', { routes: [{ path: '/harness', element: <Harness vaultKey={vault.vaultKey} /> }], keyring });
    await screen.findByRole('button', { name: 'Trash GitHub' });

    await act(async () => expect(await current().actions.trash(openEntryNamed('GitHub'))).toEqual({ ok: true }));
    expect(openEntryNamed('GitHub')).toMatchObject({ revision: 2, deletedAt: expect.any(String) });
    await act(async () => expect(await current().actions.restore(openEntryNamed('GitHub'))).toEqual({ ok: true }));
    expect(api.to('POST', apiPaths.restoreEntry(wire.id))[0]?.body).toEqual({ revision: 2 });
    expect(openEntryNamed('GitHub')).toMatchObject({ revision: 3, deletedAt: null });

    // Purging a live entry is refused by the server: nothing changes here.
    await act(async () =>
      expect(await current().actions.purge(openEntryNamed('GitHub'))).toMatchObject({
        ok: false,
        message: /Move it to Trash first/,
      }),
    );
    expect(current().entries).toHaveLength(1);
    await act(async () => void (await current().actions.trash(openEntryNamed('GitHub'))));
    await act(async () => expect(await current().actions.purge(openEntryNamed('GitHub'))).toEqual({ ok: true }));
    expect(
      api.requests
        .filter((request) => request.path === apiPaths.purgeEntry(wire.id))
        .map((request) => request.query.get('revision')),
    ).toEqual(['3', '4']);
    expect(current().entries).toHaveLength(0);
    expect(server.store.size).toBe(0);
  });

  it('a failed write (network, 5xx) resolves with a plain message and changes nothing here', async () => {
    const { keyring, vault } = await unlockedKeyring();
    const wire = await sealedEntry(vault.vaultKey, GITHUB);
    live = null;
    const server = fakeEntryRoutes([wire], {
      [routePrefix('DELETE', apiPaths.deleteEntry(''))]: 'network-error',
      [routePrefix('PUT', apiPaths.updateEntry(''))]: { status: 500, body: { message: 'Oops.' } },
    });
    fakeApi({ ...signedInRoutes(), ...server.routes });
    renderApp('/harness', { routes: [{ path: '/harness', element: <Harness vaultKey={vault.vaultKey} /> }], keyring });
    await screen.findByRole('button', { name: 'Trash GitHub' });
    const before = openEntryNamed('GitHub');

    await act(async () =>
      expect(await current().actions.trash(before)).toEqual({
        ok: false,
        message: 'Could not move it to Trash: you are offline or the server cannot be reached.',
      }),
    );
    await act(async () =>
      expect(await current().actions.setFavorite(before, true)).toEqual({
        ok: false,
        message: 'Could not mark it as a favourite: the server had a problem. Try again in a moment.',
      }),
    );
    expect(openEntryNamed('GitHub')).toBe(before);
    expect(console.warn).toHaveBeenCalledWith(
      '[Lockit] Deleting a password failed: Network error: the server could not be reached.',
    );
  });
});

describe('useEntryActions: favourite, secrets and folders', () => {
  it('setFavorite saves the whole entry again with the flag, and secrets open on demand', async () => {
    const { keyring, vault } = await unlockedKeyring();
    const wire = await sealedEntry(vault.vaultKey, {
      ...GITHUB,
      totp: 'JBSWY3DPEHPK3PXP',
      fields: [{ id: 'h1', label: 'PIN', kind: 'hidden' }],
      hidden: { h1: '42' },
    });
    live = null;
    const server = fakeEntryRoutes([wire]);
    fakeApi({ ...signedInRoutes(), ...server.routes });
    renderApp('/harness', { routes: [{ path: '/harness', element: <Harness vaultKey={vault.vaultKey} /> }], keyring });
    await screen.findByRole('button', { name: 'Trash GitHub' });

    await act(async () => expect(await current().actions.setFavorite(openEntryNamed('GitHub'), true)).toEqual({ ok: true }));
    expect(openEntryNamed('GitHub')).toMatchObject({ favorite: true, revision: 2, hasTotp: true });
    expect(await current().actions.openSecrets(openEntryNamed('GitHub'))).toEqual({
      password: 'old-password',
      notes: 'first note',
      totp: 'JBSWY3DPEHPK3PXP',
      hidden: { h1: '42' },
      card: null,
      identity: null,
    });
  });

  it('a secret that does not open shows the entry as damaged', async () => {
    const { keyring, vault } = await unlockedKeyring();
    const wire = await sealedEntry(vault.vaultKey, GITHUB);
    live = null;
    fakeApi({ ...signedInRoutes(), ...fakeEntryRoutes([wire]).routes });
    renderApp('/harness', { routes: [{ path: '/harness', element: <Harness vaultKey={vault.vaultKey} /> }], keyring });
    await screen.findByRole('button', { name: 'Trash GitHub' });
    const entry = openEntryNamed('GitHub');
    let failed = false;
    await act(async () => {
      await current()
        .actions.openSecrets({ ...entry, sealed: { ...entry.sealed, password: entry.sealed.notes! } })
        .catch(() => (failed = true));
    });
    expect(failed).toBe(true);
    expect(current().entries[0]).toMatchObject({ status: 'damaged', revision: 1 });
  });

  it('folders: names sealed to the folder id, loaded with the list, renamed on their revision', async () => {
    const { keyring, vault } = await unlockedKeyring();
    const work = await sealedFolder(vault.vaultKey, 'Work');
    const entry = await sealedEntry(vault.vaultKey, { ...GITHUB, folderId: work.id });
    live = null;
    const server = fakeEntryRoutes([entry], {}, [work]);
    const api = fakeApi({ ...signedInRoutes(), ...server.routes });
    renderApp('/harness', { routes: [{ path: '/harness', element: <Harness vaultKey={vault.vaultKey} /> }], keyring });
    await screen.findByRole('button', { name: 'Trash GitHub' });
    expect(current().folders).toEqual([{ id: work.id, name: 'Work', revision: 1 }]);
    expect(openEntryNamed('GitHub').searchText).toContain('work');

    let added: Awaited<ReturnType<EntryActions['addFolder']>> | undefined;
    await act(async () => void (added = await current().actions.addFolder('  Work / Banking ')));
    if (!added?.ok) throw new Error('not added');
    expect(added.folder.name).toBe('Work/Banking');
    const body = api.to('POST', apiPaths.folders)[0]!.body as { id: string; name: string };
    expect(body.name).not.toContain('Banking');
    expect(await decryptField(vault.vaultKey, `folder:${body.id}`, 'serviceName', body.name)).toBe('Work/Banking');
    await expect(decryptField(vault.vaultKey, body.id, 'serviceName', body.name)).rejects.toThrow();

    await act(async () =>
      expect(await current().actions.addFolder(' / ')).toEqual({
        ok: false,
        message: 'A folder name cannot have an empty part between slashes.',
      }),
    );

    await act(async () => expect(await current().actions.renameFolder(current().folders[0]!, 'Job')).toMatchObject({ ok: true }));
    expect(
      api.requests.find((request) => request.method === 'PUT' && request.path === apiPaths.folder(work.id))?.body,
    ).toMatchObject({ revision: 1 });
    expect(openEntryNamed('GitHub').searchText).toContain('job');

    // Renamed elsewhere meanwhile: refused, and the current name is shown.
    server.folders.set(work.id, await sealedFolder(vault.vaultKey, 'Office', { id: work.id, revision: 5 }));
    const stale = current().folders.find((folder) => folder.id === work.id)!;
    await act(async () =>
      expect(await current().actions.renameFolder(stale, 'Other')).toMatchObject({ ok: false, message: /changed elsewhere/ }),
    );
    expect(current().folders.find((folder) => folder.id === work.id)).toEqual({ id: work.id, name: 'Office', revision: 5 });

    await act(async () =>
      expect(await current().actions.deleteFolder(current().folders.find((folder) => folder.id === work.id)!)).toEqual({
        ok: true,
      }),
    );
    expect(current().folders.map((folder) => folder.name)).toEqual(['Work/Banking']);
    expect(openEntryNamed('GitHub').searchText).not.toContain('office');
  });

  it('a vault opens without folders when the folder list fails', async () => {
    const { keyring, vault } = await unlockedKeyring();
    const wire = await sealedEntry(vault.vaultKey, GITHUB);
    live = null;
    fakeApi({
      ...signedInRoutes(),
      ...fakeEntryRoutes([wire], { [route('GET', apiPaths.folders)]: { status: 500, body: { message: 'No.' } } }).routes,
    });
    renderApp('/harness', { routes: [{ path: '/harness', element: <Harness vaultKey={vault.vaultKey} /> }], keyring });
    expect(await screen.findByRole('button', { name: 'Trash GitHub' })).toBeInTheDocument();
    expect(current().folders).toEqual([]);
    expect(console.warn).toHaveBeenCalledWith('[Lockit] Loading the folders failed: No.');
  });
});

describe('History', () => {
  it('lists earlier versions with what changed, reveals an old password, and restores a version on the current revision', async () => {
    const { keyring, vault } = await unlockedKeyring();
    const wire = await sealedEntry(vault.vaultKey, GITHUB);
    live = null;
    const server = fakeEntryRoutes([wire]);
    const api = fakeApi({ ...signedInRoutes(), ...server.routes });
    const app = renderApp('/harness', {
      routes: [{ path: '/harness', element: <Harness vaultKey={vault.vaultKey} /> }],
      keyring,
    });
    await screen.findByRole('button', { name: 'Trash GitHub' });
    const draft = await current().actions.openDraft(openEntryNamed('GitHub'));
    await act(
      async () => void (await current().actions.save(openEntryNamed('GitHub'), { ...draft, password: 'second', tags: ['x'] })),
    );
    await act(
      async () =>
        void (await current().actions.save(openEntryNamed('GitHub'), { ...draft, password: 'third', tags: ['x'], notes: 'n3' })),
    );
    expect(api.requests.some((request) => request.path.startsWith('/api/passwords/history/'))).toBe(false);

    await app.user.click(screen.getByRole('button', { name: 'History GitHub' }));
    const panel = await screen.findByRole('dialog', { name: 'History of GitHub' });
    const versions = await within(panel).findAllByRole('listitem');
    expect(versions).toHaveLength(2);
    expect(versions[0]).toHaveTextContent('Changed after this version: Password, Notes.');
    expect(versions[1]).toHaveTextContent('Changed after this version: Password, Tags.');
    expect(within(versions[1]!).queryByText('old-password')).not.toBeInTheDocument();
    await app.user.click(within(versions[1]!).getByRole('button', { name: 'Show password' }));
    expect(within(versions[1]!).getByText('old-password')).toBeInTheDocument();

    await app.user.click(within(versions[1]!).getByRole('button', { name: 'Restore this version' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const restore = puts(api).at(-1)!.body as UpdateEntryRequest;
    expect(restore.revision).toBe(3);
    expect(await openSealed(vault.vaultKey, wire.id, server.store.get(wire.id)!)).toMatchObject({
      password: 'old-password',
      notes: 'first note',
    });
    expect(openEntryNamed('GitHub')).toMatchObject({ revision: 4, tags: [] });
  });
});

describe('Legacy entries', () => {
  it('are saved again in the item format after the list is painted, off the critical path; a conflict leaves one as it was', async () => {
    installFakeClockWithRealTime();
    const { keyring, vault } = await unlockedKeyring();
    const old = await Promise.all(
      ['A', 'B', 'C'].map((name) =>
        sealedEntry(
          vault.vaultKey,
          { serviceName: name, username: 'u', password: `p-${name}`, url: `https://${name}.example` },
          { format: 'legacy' },
        ),
      ),
    );
    const modern = await sealedEntry(vault.vaultKey, { serviceName: 'D', username: 'u', password: 'p' });
    const trashed = await sealedEntry(
      vault.vaultKey,
      { serviceName: 'E', username: 'u', password: 'p' },
      { format: 'legacy', deletedAt: '2025-01-01T00:00:00.000Z' },
    );
    live = null;
    const server = fakeEntryRoutes([...old, modern, trashed]);
    const api = fakeApi({ ...signedInRoutes(), ...server.routes });
    renderApp('/harness', { routes: [{ path: '/harness', element: <Harness vaultKey={vault.vaultKey} /> }], keyring });
    await screen.findByRole('button', { name: 'Trash A' });
    expect(openEntryNamed('A').format).toBe('legacy');
    // B changed elsewhere before the upgrade reaches it.
    server.store.set(old[1]!.id, { ...old[1]!, revision: 2 });
    expect(puts(api)).toHaveLength(0);

    await advance(LEGACY_UPGRADE_DELAY_MS);
    await waitFor(() => expect(openEntryNamed('C').format).toBe('item'));
    expect(openEntryNamed('A')).toMatchObject({ format: 'item', revision: 2, urls: ['https://A.example'] });
    expect(openEntryNamed('B').format).toBe('legacy');
    expect(
      puts(api)
        .map((request) => request.path)
        .sort(),
    ).toEqual([old[0]!.id, old[1]!.id, old[2]!.id].map((id) => apiPaths.updateEntry(id)).sort());
    const stored = await openSealed(vault.vaultKey, old[0]!.id, server.store.get(old[0]!.id)!);
    expect(stored).toMatchObject({
      serviceName: 'A',
      password: 'p-A',
      url: 'https://A.example',
      overview: { type: 'login', urls: ['https://A.example'] },
    });
    expect(server.store.get(trashed.id)?.overview).toBeNull();
    expect(console.info).toHaveBeenCalledWith(
      expect.stringContaining('changed elsewhere before it could be saved in the item format'),
    );
  });
});
