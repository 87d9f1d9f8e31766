import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { saveClipboardClearSeconds } from '@/lib/clipboard-clear';
import { fakeApi, signedInRoutes } from '@/testing/fake-api';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { advance, installFakeClockWithRealTime } from '@/testing/timers';
import { fakeEntryRoutes, sealedEntry, unlockedKeyring } from '@/testing/vault-fixtures';
import { VaultPage } from './vault-page';

const routes = pageRoutes({ '/vault': <VaultPage /> });

async function openVault() {
  const { keyring, vault } = await unlockedKeyring();
  const entry = await sealedEntry(vault.vaultKey, { serviceName: 'GitHub', username: 'alice', password: 'gh-secret' });
  fakeApi({ ...signedInRoutes(), ...fakeEntryRoutes([entry]).routes });
  const app = renderApp('/vault', { routes, keyring });
  await screen.findByRole('list', { name: 'Saved passwords' });
  return app;
}

describe('Vault: the clipboard is cleared after the delay chosen in Profile', () => {
  it('clears a copied user name after 10 s when 10 seconds is chosen', async () => {
    installFakeClockWithRealTime();
    saveClipboardClearSeconds(10);
    const app = await openVault();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await app.user.click(screen.getByRole('button', { name: 'Copy user name for GitHub' }));
    await screen.findByRole('button', { name: 'User name for GitHub copied' });

    await advance(9_000);
    expect(await navigator.clipboard.readText()).toBe('alice');
    await advance(1_500);
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith(''));
    expect(writeText.mock.calls).toEqual([['alice'], ['']]);
  });

  it('keeps it past 30 s when 2 minutes is chosen, and leaves text copied elsewhere in the end', async () => {
    installFakeClockWithRealTime();
    saveClipboardClearSeconds(120);
    const app = await openVault();
    await app.user.click(screen.getByRole('button', { name: 'Copy password for GitHub' }));
    await screen.findByRole('button', { name: 'Password for GitHub copied' });

    await advance(60_000);
    expect(await navigator.clipboard.readText()).toBe('gh-secret');
    await navigator.clipboard.writeText('my own text');
    await advance(61_000);
    expect(await navigator.clipboard.readText()).toBe('my own text');
  });
});
