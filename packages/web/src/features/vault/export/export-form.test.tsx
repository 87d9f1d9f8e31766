import { apiPaths } from '@lockit/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, signedInRoutes } from '@/testing/fake-api';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { unlockedKeyring } from '@/testing/vault-fixtures';
import { ExportPage } from './export-page';

const routes = pageRoutes({ '/vault/export': <ExportPage /> });

async function exportPage() {
  const api = fakeApi(signedInRoutes());
  const { keyring } = await unlockedKeyring();
  const rendered = renderApp('/vault/export', { routes, keyring });
  await screen.findByRole('group', { name: 'Format' });
  return { api, ...rendered };
}

describe('Export page', () => {
  it('offers the encrypted backup first, selected, with its own password asked twice', async () => {
    await exportPage();
    const radios = within(screen.getByRole('group', { name: 'Format' })).getAllByRole('radio');
    expect(radios.map((radio) => radio.getAttribute('value'))).toEqual([
      'backup',
      'bitwarden-json',
      'bitwarden-csv',
      'generic-csv',
    ]);
    expect(radios[0]).toBeChecked();
    expect(screen.getByLabelText('Backup password', { exact: true })).toBeInTheDocument();
    expect(screen.getByLabelText('Backup password again', { exact: true })).toBeInTheDocument();
    expect(screen.queryByText('This file is not encrypted.')).not.toBeInTheDocument();
  });

  it('warns that a plain file holds every password in the clear and asks for a confirmation', async () => {
    const { user, api } = await exportPage();
    await user.click(screen.getByRole('radio', { name: /Bitwarden \(CSV\)/ }));
    expect(screen.getByRole('alert')).toHaveTextContent('This file is not encrypted.');
    expect(screen.getByRole('radio', { name: /Bitwarden \(CSV\)/ })).toHaveAccessibleName(/cards and identities/);
    expect(screen.queryByLabelText('Backup password', { exact: true })).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Master Password', { exact: true }), 'my master password');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('Confirm that you understand the file is not encrypted.')).toBeInTheDocument();
    expect(api.to('GET', apiPaths.keyMaterial)).toEqual([]);
  });

  it('refuses a short, mismatched or master-password backup password before anything is fetched', async () => {
    const { user, api } = await exportPage();
    const master = screen.getByLabelText('Master Password', { exact: true });
    const backup = screen.getByLabelText('Backup password', { exact: true });
    const again = screen.getByLabelText('Backup password again', { exact: true });
    const submit = () => user.click(screen.getByRole('button', { name: 'Export' }));

    await user.type(master, 'my master password');
    await user.type(backup, 'short');
    await user.type(again, 'short');
    await submit();
    expect(await screen.findByText('The backup password must have at least 12 characters.')).toBeInTheDocument();

    await user.clear(backup);
    await user.type(backup, 'a long backup password');
    await submit();
    expect(await screen.findByText('The two backup passwords are not the same.')).toBeInTheDocument();

    await user.clear(backup);
    await user.clear(again);
    await user.type(backup, 'my master password');
    await user.type(again, 'my master password');
    await submit();
    expect(await screen.findByText('Choose a backup password other than your master password.')).toBeInTheDocument();
    expect(api.requests.filter((request) => request.path !== apiPaths.verifySession)).toEqual([]);
  });
});
