import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, signedInRoutes } from '@/testing/fake-api';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { fakeEntryRoutes, sealedEntries, unlockedKeyring } from '@/testing/vault-fixtures';
import { VaultPage } from './vault-page';

const routes = pageRoutes({ '/vault': <VaultPage /> });

async function openVault() {
  const { keyring, vault } = await unlockedKeyring();
  const entries = await sealedEntries(vault.vaultKey, [{ serviceName: 'GitHub', username: 'alice', password: 'gh-secret' }]);
  fakeApi({ ...signedInRoutes(), ...fakeEntryRoutes(entries).routes });
  const app = renderApp('/vault', { routes, keyring });
  const row = await screen.findByRole('listitem', { name: 'GitHub' });
  return { app, row };
}

describe('Vault modals: keyboard', () => {
  it('Add: focus moves in, Tab and Shift+Tab stay inside, Escape closes and focus returns to Add', async () => {
    const { app } = await openVault();
    const add = screen.getByRole('button', { name: 'Add' });
    add.focus();
    await app.user.keyboard('{Enter}');

    const dialog = screen.getByRole('dialog', { name: 'Add New Password' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    const service = within(dialog).getByLabelText('Service');
    expect(service).toHaveFocus();

    // Tab walks every control once, the spec's in their order among the new ones (type, more
    // addresses, TOTP, custom fields, folder, tags, favourite), and wraps around inside.
    const specOrder = [
      within(dialog).getByLabelText('Username'),
      within(dialog).getByLabelText('Password'),
      within(dialog).getByRole('button', { name: 'Show password' }),
      within(dialog).getByLabelText('URL (optional)'),
      within(dialog).getByLabelText('Notes (optional)'),
      within(dialog).getByRole('button', { name: 'Add' }),
      within(dialog).getByRole('button', { name: 'Cancel' }),
      within(dialog).getByLabelText('Type'),
      service,
    ];
    const visited: Element[] = [];
    for (let step = 0; step < 40 && (visited.length === 0 || document.activeElement !== service); step++) {
      await app.user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
      visited.push(document.activeElement!);
    }
    expect(visited.filter((element) => specOrder.includes(element as HTMLElement))).toEqual(specOrder);
    expect(new Set(visited).size).toBe(visited.length);
    await app.user.tab({ shift: true });
    expect(within(dialog).getByLabelText('Type')).toHaveFocus();
    await app.user.tab({ shift: true });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();

    await app.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(add).toHaveFocus();
  });

  it('Edit: focus moves to the first field, Escape closes and focus returns to the row’s Edit button', async () => {
    const { app, row } = await openVault();
    const edit = within(row).getByRole('button', { name: 'Edit GitHub' });
    await app.user.click(edit);
    const dialog = await screen.findByRole('dialog', { name: 'Edit Password' });
    expect(within(dialog).getByLabelText('Service')).toHaveFocus();
    await app.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(edit).toHaveFocus();
  });

  it('Delete: focus starts on Cancel, Tab stays inside, Escape keeps the entry and returns focus', async () => {
    const { app, row } = await openVault();
    const remove = within(row).getByRole('button', { name: 'Delete GitHub' });
    await app.user.click(remove);
    const dialog = screen.getByRole('dialog', { name: 'Delete Password' });
    const cancel = within(dialog).getByRole('button', { name: 'Cancel' });
    expect(cancel).toHaveFocus();
    await app.user.tab();
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toHaveFocus();
    await app.user.tab();
    expect(cancel).toHaveFocus();

    await app.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(remove).toHaveFocus();
    expect(screen.getByRole('listitem', { name: 'GitHub' })).toBeInTheDocument();
  });
});
