import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, signedInRoutes } from '@/testing/fake-api';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { advance, installFakeClockWithRealTime } from '@/testing/timers';
import { fakeEntryRoutes, sealedEntries, unlockedKeyring } from '@/testing/vault-fixtures';
import { VaultPage } from './vault-page';

const routes = pageRoutes({ '/vault': <VaultPage /> });

async function openVault() {
  const { keyring, vault } = await unlockedKeyring();
  const entries = await sealedEntries(vault.vaultKey, [
    { serviceName: 'GitHub', username: 'alice', password: 'gh-secret' },
    { serviceName: 'Mail', username: 'alice@example.com', password: 'mail-secret' },
  ]);
  fakeApi({ ...signedInRoutes(), ...fakeEntryRoutes(entries).routes });
  const app = renderApp('/vault', { routes, keyring });
  const github = await screen.findByRole('listitem', { name: 'GitHub' });
  const mail = screen.getByRole('listitem', { name: 'Mail' });
  return { app, github, mail };
}

describe('Vault: reveal', () => {
  it('reveals and hides one entry at a time; revealing one does not reveal another', async () => {
    const { app, github, mail } = await openVault();
    const show = within(github).getByRole('button', { name: 'Show password for GitHub' });
    expect(show).toHaveAttribute('aria-pressed', 'false');
    expect(show).toHaveAttribute('data-icon', 'eye');
    await app.user.click(show);

    expect(await within(github).findByText('gh-secret')).toBeInTheDocument();
    const hide = within(github).getByRole('button', { name: 'Hide password for GitHub' });
    expect(hide).toHaveAttribute('aria-pressed', 'true');
    expect(hide).toHaveAttribute('data-icon', 'eye-off');
    expect(within(mail).getByText('••••••••')).toBeInTheDocument();
    expect(screen.queryByText('mail-secret')).not.toBeInTheDocument();

    await app.user.click(within(mail).getByRole('button', { name: 'Show password for Mail' }));
    expect(await within(mail).findByText('mail-secret')).toBeInTheDocument();
    expect(within(github).getByText('gh-secret')).toBeInTheDocument();

    await app.user.click(within(github).getByRole('button', { name: 'Hide password for GitHub' }));
    expect(within(github).getByText('••••••••')).toBeInTheDocument();
    expect(screen.queryByText('gh-secret')).not.toBeInTheDocument();
    expect(within(mail).getByText('mail-secret')).toBeInTheDocument();
  });
});

describe('Vault: copy', () => {
  it('puts the password on the clipboard and shows a check icon for 2 s', async () => {
    installFakeClockWithRealTime();
    const { app, github, mail } = await openVault();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await app.user.click(within(github).getByRole('button', { name: 'Copy password for GitHub' }));

    const copied = await within(github).findByRole('button', { name: 'Password for GitHub copied' });
    expect(copied).toHaveAttribute('data-icon', 'check');
    expect(writeText).toHaveBeenCalledWith('gh-secret');
    expect(await navigator.clipboard.readText()).toBe('gh-secret');
    // The password was copied, not revealed; the other entry shows no check.
    expect(within(github).getByText('••••••••')).toBeInTheDocument();
    expect(within(mail).getByRole('button', { name: 'Copy password for Mail' })).toHaveAttribute('data-icon', 'copy');

    await advance(1_850);
    expect(within(github).getByRole('button', { name: 'Password for GitHub copied' })).toBeInTheDocument();
    await advance(200);
    const again = within(github).getByRole('button', { name: 'Copy password for GitHub' });
    expect(again).toHaveAttribute('data-icon', 'copy');
  });

  it('copies a revealed password as shown', async () => {
    const { app, github } = await openVault();
    await app.user.click(within(github).getByRole('button', { name: 'Show password for GitHub' }));
    await within(github).findByText('gh-secret');
    await app.user.click(within(github).getByRole('button', { name: 'Copy password for GitHub' }));
    await within(github).findByRole('button', { name: 'Password for GitHub copied' });
    expect(await navigator.clipboard.readText()).toBe('gh-secret');
  });

  it('logs a refused clipboard and shows no check', async () => {
    const { app, github } = await openVault();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('Denied', 'NotAllowedError'));
    await app.user.click(within(github).getByRole('button', { name: 'Copy password for GitHub' }));
    await waitFor(() => expect(console.warn).toHaveBeenCalledWith('[Lockit] Copying a password failed: Unexpected error.'));
    expect(within(github).getByRole('button', { name: 'Copy password for GitHub' })).toBeInTheDocument();
  });
});
