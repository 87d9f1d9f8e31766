import { apiPaths } from '@lockit/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, routePrefix, signedInRoutes } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { fakeEntryRoutes, sealedEntry, unlockedKeyring } from '@/testing/vault-fixtures';
import { Harness, GITHUB, current, openEntryNamed } from '@/testing/entry-actions-harness';

describe('useEntryActions: delete conflict, trash, restore, purge', () => {
  async function setUpWithNewer() {
    const { keyring, vault } = await unlockedKeyring();
    const mine = await sealedEntry(vault.vaultKey, GITHUB);
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
