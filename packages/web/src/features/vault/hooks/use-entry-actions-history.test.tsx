import type { UpdateEntryRequest } from '@lockit/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, signedInRoutes } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { fakeEntryRoutes, openSealed, sealedEntry, unlockedKeyring } from '@/testing/vault-fixtures';
import { Harness, GITHUB, current, openEntryNamed, puts } from '@/testing/entry-actions-harness';

describe('History', () => {
  it('lists earlier versions with what changed, reveals an old password, and restores a version on the current revision', async () => {
    const { keyring, vault } = await unlockedKeyring();
    const wire = await sealedEntry(vault.vaultKey, GITHUB);
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
