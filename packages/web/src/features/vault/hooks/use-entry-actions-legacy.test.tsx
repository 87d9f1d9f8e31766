import { apiPaths } from '@lockit/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, signedInRoutes } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { advance, installFakeClockWithRealTime } from '@/testing/timers';
import { fakeEntryRoutes, openSealed, sealedEntry, unlockedKeyring } from '@/testing/vault-fixtures';
import { LEGACY_UPGRADE_DELAY_MS } from '../lib/upgrade-legacy';
import { Harness, openEntryNamed, puts } from '@/testing/entry-actions-harness';

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
