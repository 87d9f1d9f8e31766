import { apiPaths } from '@lockit/contract';
import { decryptField } from '@lockit/crypto';
import { screen, waitFor, within } from '@testing-library/react';
import { useMemo, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fakeApi, routePrefix, signedInRoutes, type FakeAnswer, type FakeRequest, type FakeRoute } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { fakeEntryRoutes, sealedEntry, sealedFolder, unlockedKeyring } from '@/testing/vault-fixtures';
import { useEntryActions } from '../hooks/use-entry-actions';
import { useVaultEntries } from '../hooks/use-vault-entries';
import { countByFolder, folderTree, type EntryFilter, type EntrySummary } from '../lib/entry-filter';
import { FilterSidebar, type FilterCounts } from './filter-sidebar';

/**
 * The filter column as the vault screen wires it (vault-view.tsx passes the same props): the
 * real data hooks and actions against the fake server, the column and the chosen filter.
 */
function Column({ vaultKey }: { vaultKey: CryptoKey }) {
  const { state, folders, dispatch } = useVaultEntries(vaultKey);
  const actions = useEntryActions(vaultKey, dispatch);
  const [filter, setFilter] = useState<EntryFilter>({ kind: 'all' });
  const summaries = useMemo(
    () =>
      (state.status === 'loading' ? [] : state.entries).flatMap((entry): EntrySummary[] =>
        entry.status === 'open' ? [{ ...entry, name: entry.serviceName }] : [],
      ),
    [state],
  );
  const counts: FilterCounts = {
    all: summaries.length,
    favorites: 0,
    byType: { login: summaries.length, note: 0, card: 0, identity: 0 },
    byFolder: countByFolder(summaries, folders),
    trash: 0,
  };
  if (state.status === 'loading') return <p>Loading</p>;
  return (
    <>
      <FilterSidebar
        filter={filter}
        onSelect={setFilter}
        counts={counts}
        folders={folderTree(folders)}
        tags={[]}
        onNewFolder={() => {}}
        drawerOpen={false}
        onCloseDrawer={() => {}}
        openFolders={folders}
        onRenameFolder={actions.renameFolder}
        onDeleteFolder={actions.deleteFolder}
      />
      <p aria-label="Chosen filter">{filter.kind}</p>
    </>
  );
}

const FOLDER_PUT = routePrefix('PUT', apiPaths.folder(''));
const FOLDER_DELETE = routePrefix('DELETE', apiPaths.folder(''));

async function openColumn(
  names: string[],
  entryFolders: string[] = [],
  overrides: (server: Server) => Record<string, FakeRoute> = () => ({}),
) {
  const { keyring, vault } = await unlockedKeyring();
  const folders = await Promise.all(names.map((name) => sealedFolder(vault.vaultKey, name)));
  const idOf = (name: string) => folders[names.indexOf(name)]!.id;
  const entries = await Promise.all(
    entryFolders.map((name, i) =>
      sealedEntry(vault.vaultKey, { serviceName: `Entry ${i}`, username: 'u', password: 'p', folderId: idOf(name) }),
    ),
  );
  const server = fakeEntryRoutes(entries, {}, folders);
  const api = fakeApi({ ...signedInRoutes(), ...server.routes, ...overrides(server) });
  const app = renderApp('/column', { routes: [{ path: '/column', element: <Column vaultKey={vault.vaultKey} /> }], keyring });
  await screen.findByRole('navigation', { name: 'Filters' });
  const nameOnServer = async (name: string) => {
    const stored = server.folders.get(idOf(name))!;
    return decryptField(vault.vaultKey, `folder:${stored.id}`, 'serviceName', stored.name);
  };
  return { app, api, server, idOf, nameOnServer };
}
type Server = ReturnType<typeof fakeEntryRoutes>;

const folderButtons = () =>
  within(screen.getByRole('navigation', { name: 'Filters' }))
    .getAllByRole('button', { name: /^Folder actions: / })
    .map((button) => button.getAttribute('aria-label')!.slice('Folder actions: '.length));

async function openMenu(app: Awaited<ReturnType<typeof openColumn>>['app'], path: string) {
  const toggle = screen.getByRole('button', { name: `Folder actions: ${path}` });
  await app.user.click(toggle);
  expect(toggle).toHaveAttribute('aria-expanded', 'true');
  return toggle;
}

describe('Filter column: rename a folder', () => {
  it('renames a parent with the folders inside it, each on its revision, and focus returns to its menu button', async () => {
    const { app, api, nameOnServer } = await openColumn(['Work', 'Work/Banking', 'Work/Banking/Cards', 'Workshop']);
    expect(folderButtons()).toEqual(['Work', 'Work/Banking', 'Work/Banking/Cards', 'Workshop']);

    await openMenu(app, 'Work');
    await app.user.click(screen.getByRole('button', { name: 'Rename folder Work' }));
    const dialog = screen.getByRole('dialog', { name: 'Rename Folder' });
    const input = within(dialog).getByRole('textbox', { name: 'Folder name' });
    expect(input).toHaveValue('Work');
    expect(within(dialog).getByText('The 2 folders inside it move with it.')).toBeInTheDocument();
    await app.user.clear(input);
    await app.user.type(input, 'Job{Enter}');

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(folderButtons()).toEqual(['Job', 'Job/Banking', 'Job/Banking/Cards', 'Workshop']);
    expect(await nameOnServer('Work')).toBe('Job');
    expect(await nameOnServer('Work/Banking')).toBe('Job/Banking');
    expect(await nameOnServer('Work/Banking/Cards')).toBe('Job/Banking/Cards');
    expect(
      api.requests
        .filter((request) => request.method === 'PUT' && request.path !== apiPaths.vaultState)
        .map((request) => (request.body as { revision: number }).revision),
    ).toEqual([1, 1, 1]);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Folder actions: Job' })).toHaveFocus());
  });

  it('shows a refused name in the dialog, keeps what was typed and sends nothing', async () => {
    const { app, api } = await openColumn(['Work']);
    await openMenu(app, 'Work');
    await app.user.click(screen.getByRole('button', { name: 'Rename folder Work' }));
    const input = screen.getByRole('textbox', { name: 'Folder name' });
    await app.user.type(input, '//x{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('A folder name cannot have an empty part between slashes.');
    expect(input).toHaveValue('Work//x');
    expect(api.requests.filter((request) => request.method === 'PUT' && request.path !== apiPaths.vaultState)).toEqual([]);
  });

  it('says what was not renamed when the server fails midway, and renaming again finishes the job', async () => {
    let failBanking = true;
    const { app, nameOnServer, idOf } = await openColumn(['Work', 'Work/Banking'], [], (server) => {
      const rename = server.routes[FOLDER_PUT] as (request: FakeRequest) => FakeAnswer;
      return {
        [FOLDER_PUT]: (request: FakeRequest) =>
          failBanking && request.path.endsWith(idOf('Work/Banking'))
            ? { status: 500, body: { message: 'Server error' } }
            : rename(request),
      };
    });
    await openMenu(app, 'Work');
    await app.user.click(screen.getByRole('button', { name: 'Rename folder Work' }));
    const input = screen.getByRole('textbox', { name: 'Folder name' });
    await app.user.clear(input);
    await app.user.type(input, 'Job{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not rename the folder: the server had a problem. Try again in a moment. 1 of 2 folders were renamed; “Work/Banking” and the rest still have their old names. Rename again to finish.',
    );
    expect(await nameOnServer('Work')).toBe('Job');
    expect(await nameOnServer('Work/Banking')).toBe('Work/Banking');

    failBanking = false;
    await app.user.click(screen.getByRole('button', { name: 'Rename' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await nameOnServer('Work/Banking')).toBe('Job/Banking');
    expect(folderButtons()).toEqual(['Job', 'Job/Banking']);
  });

  it('renames what a folder only implied by a deeper name holds, and offers no Delete for it', async () => {
    const { app } = await openColumn(['A/B']);
    await openMenu(app, 'A');
    expect(screen.queryByRole('button', { name: 'Delete folder A' })).not.toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Rename folder A' }));
    const input = screen.getByRole('textbox', { name: 'Folder name' });
    await app.user.clear(input);
    await app.user.type(input, 'Z{Enter}');
    await waitFor(() => expect(folderButtons()).toEqual(['Z', 'Z/B']));
  });
});

describe('Filter column: delete a folder', () => {
  it('says the entries are not deleted, deletes only the folder on its revision, and its entries show under No folder', async () => {
    const { app, api, server, idOf } = await openColumn(['Work', 'Work/Banking'], ['Work', 'Work', 'Work/Banking']);
    await app.user.click(screen.getByRole('button', { name: 'Work 3' }));
    expect(screen.getByLabelText('Chosen filter')).toHaveTextContent('folder');

    await openMenu(app, 'Work');
    await app.user.click(screen.getByRole('button', { name: 'Delete folder Work' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Folder' });
    expect(dialog).toHaveTextContent(
      'Delete the folder “Work”? The 2 entries in it are not deleted: they stay in your vault, under “No folder”. The 1 folder inside it is kept.',
    );
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await app.user.click(within(dialog).getByRole('button', { name: 'Delete folder' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const deleted = api.requests.find((request) => request.method === 'DELETE')!;
    expect(deleted.path).toBe(apiPaths.folder(idOf('Work')));
    expect(deleted.query.get('revision')).toBe('1');
    expect(server.folders.has(idOf('Work/Banking'))).toBe(true);
    expect(server.store.size).toBe(3);
    expect(screen.getByRole('button', { name: 'No folder 2' })).toBeInTheDocument();
    // The list no longer filters by a folder that is gone.
    expect(screen.getByLabelText('Chosen filter')).toHaveTextContent('all');
    await waitFor(() => expect(screen.getByRole('button', { name: 'New folder' })).toHaveFocus());
  });

  it('shows a failure in the dialog and deletes nothing; Cancel then closes it', async () => {
    const { app, server, idOf } = await openColumn(['Work'], ['Work'], () => ({ [FOLDER_DELETE]: 'network-error' }));
    const toggle = await openMenu(app, 'Work');
    await app.user.click(screen.getByRole('button', { name: 'Delete folder Work' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Folder' });
    expect(dialog).toHaveTextContent('The 1 entry in it is not deleted: it stays in your vault, under “No folder”.');
    await app.user.click(within(dialog).getByRole('button', { name: 'Delete folder' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Could not delete the folder: you are offline or the server cannot be reached.',
    );
    expect(within(dialog).getByRole('button', { name: 'Delete folder' })).toBeEnabled();
    expect(server.folders.has(idOf('Work'))).toBe(true);
    await app.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(folderButtons()).toEqual(['Work']);
    expect(toggle).toHaveFocus();
  });
});

describe('Filter column: the folder menu by keyboard', () => {
  it('opens with Enter, Tab reaches Rename and Delete, and Escape closes it back on its button', async () => {
    const { app } = await openColumn(['Work']);
    const toggle = screen.getByRole('button', { name: 'Folder actions: Work' });
    toggle.focus();
    await app.user.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await app.user.tab();
    expect(screen.getByRole('button', { name: 'Rename folder Work' })).toHaveFocus();
    await app.user.tab();
    expect(screen.getByRole('button', { name: 'Delete folder Work' })).toHaveFocus();
    await app.user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Rename folder Work' })).not.toBeInTheDocument();

    await app.user.keyboard('{Enter}');
    await app.user.tab();
    await app.user.keyboard('{Enter}');
    expect(screen.getByRole('dialog', { name: 'Rename Folder' })).toBeInTheDocument();
    await app.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(toggle).toHaveFocus();
  });

  it('has no menu where the screen passes no folder actions', async () => {
    const { keyring, vault } = await unlockedKeyring();
    fakeApi({ ...signedInRoutes(), ...fakeEntryRoutes([], {}, [await sealedFolder(vault.vaultKey, 'Work')]).routes });
    function Plain() {
      const { folders } = useVaultEntries(vault.vaultKey);
      return (
        <FilterSidebar
          filter={{ kind: 'all' }}
          onSelect={() => {}}
          counts={{ all: 0, favorites: 0, byType: { login: 0, note: 0, card: 0, identity: 0 }, byFolder: new Map(), trash: 0 }}
          folders={folderTree(folders)}
          tags={[]}
          onNewFolder={() => {}}
          drawerOpen={false}
          onCloseDrawer={() => {}}
        />
      );
    }
    renderApp('/plain', { routes: [{ path: '/plain', element: <Plain /> }], keyring });
    await screen.findByRole('button', { name: 'Work 0' });
    expect(screen.queryByRole('button', { name: /^Folder actions/ })).not.toBeInTheDocument();
  });
});
