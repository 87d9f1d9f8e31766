import { apiPaths } from '@lockit/contract';
import { decryptField } from '@lockit/crypto';
import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, route, signedInRoutes } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { fakeEntryRoutes, sealedEntry, sealedFolder, unlockedKeyring } from '@/testing/vault-fixtures';
import type { EntryActions } from '../lib/entry-action-types';
import { Harness, GITHUB, current, openEntryNamed } from '@/testing/entry-actions-harness';

describe('useEntryActions: favourite, secrets and folders', () => {
  it('setFavorite saves the whole entry again with the flag, and secrets open on demand', async () => {
    const { keyring, vault } = await unlockedKeyring();
    const wire = await sealedEntry(vault.vaultKey, {
      ...GITHUB,
      totp: 'JBSWY3DPEHPK3PXP',
      fields: [{ id: 'h1', label: 'PIN', kind: 'hidden' }],
      hidden: { h1: '42' },
    });
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
      sshKey: null,
    });
  });

  it('a secret that does not open shows the entry as damaged', async () => {
    const { keyring, vault } = await unlockedKeyring();
    const wire = await sealedEntry(vault.vaultKey, GITHUB);
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
