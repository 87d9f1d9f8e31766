import { apiPaths, type UpdateEntryRequest } from '@lockit/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, routePrefix, signedInRoutes } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { fakeEntryRoutes, openSealed, sealedEntry, unlockedKeyring } from '@/testing/vault-fixtures';
import { Harness, GITHUB, openEntryNamed, puts } from '@/testing/entry-actions-harness';

describe('useEntryActions: a save that meets a newer version', () => {
  async function setUp() {
    const { keyring, vault } = await unlockedKeyring();
    const mine = await sealedEntry(vault.vaultKey, GITHUB);
    const theirs = await sealedEntry(
      vault.vaultKey,
      { ...GITHUB, password: 'their-password', notes: 'their note' },
      { id: mine.id, revision: 2 },
    );
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
    // The save met revision 2 and went on top of it. (On a slow machine the legacy upgrade,
    // 1 s after the load, may have sent its own PUT at revision 1 first: not the save's.)
    expect(
      puts(api)
        .map((request) => (request.body as UpdateEntryRequest).revision)
        .slice(-2),
    ).toEqual([1, 2]);
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
