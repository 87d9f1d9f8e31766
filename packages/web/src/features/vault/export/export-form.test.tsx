import { apiPaths, attachmentPaths } from '@lockit/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, route, signedInRoutes } from '@/testing/fake-api';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { makeUnlockedVault } from '@/testing/crypto-fixtures';
import { Keyring } from '@/lib/keyring';
import { fakeEntryRoutes, sealedEntry, unlockedKeyring } from '@/testing/vault-fixtures';
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

  /** The account's files as GET /api/attachments lists them (sealed: only their count is read). */
  const listed = (finished: number) => ({
    [route('GET', attachmentPaths.all)]: {
      status: 200,
      body: {
        message: 'Files',
        data: Array.from({ length: finished + 1 }, (_, i) => ({
          id: crypto.randomUUID(),
          entryId: crypto.randomUUID(),
          wrappedKey: 'v1.x.y',
          metadata: 'v2.x.y',
          size: 100,
          createdAt: 1,
          updatedAt: 1,
          // One upload under way: not a file yet, never counted.
          finished: i < finished,
        })),
      },
    },
  });

  it.each([
    [2, true],
    [0, false],
  ])('with %i attached files, the note that Bitwarden’s JSON cannot carry files is shown: %s', async (files, said) => {
    fakeApi({ ...signedInRoutes(), ...listed(files) });
    const { keyring } = await unlockedKeyring();
    const { user } = renderApp('/vault/export', { routes, keyring });
    await user.click(await screen.findByRole('radio', { name: /Bitwarden \(JSON\)/ }));
    const note =
      'Your vault has attached files, and Bitwarden (JSON) cannot carry files: they are not in this export. Download them from their items to keep them.';
    if (said) expect(await screen.findByRole('note')).toHaveTextContent(note);
    else {
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(screen.queryByRole('note')).not.toBeInTheDocument();
    }
  });

  it('says the encrypted backup includes the vault’s attached files, by count', async () => {
    fakeApi({ ...signedInRoutes(), ...listed(3) });
    const { keyring } = await unlockedKeyring();
    const { user } = renderApp('/vault/export', { routes, keyring });
    expect(await screen.findByRole('note')).toHaveTextContent(
      'It includes your 3 attached file(s), encrypted under the backup password (those of items in Trash only when Trash is included).',
    );
    await user.click(screen.getByRole('checkbox', { name: 'Include items in Trash' }));
    expect(screen.getByRole('note')).toHaveTextContent(
      'It includes your 3 attached file(s), encrypted under the backup password.',
    );
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
    // Only the session check and the sealed list of files (counted for the page) went out.
    const sent = api.requests.filter(
      (request) => request.path !== apiPaths.verifySession && request.path !== attachmentPaths.all,
    );
    expect(sent).toEqual([]);
  });

  it('says the server withheld an item’s history, and exports nothing', async () => {
    const master = 'my master password';
    const { account, vault } = await makeUnlockedVault('alice', master);
    const edited = await sealedEntry(vault.vaultKey, { serviceName: 'Bank', username: 'alice', password: 'p' }, { revision: 2 });
    const material = { kdf: account.kdf, salt: account.salt, protectedKey: account.protectedKey };
    const api = fakeApi({
      ...signedInRoutes(),
      ...fakeEntryRoutes([edited]).routes,
      [route('GET', apiPaths.keyMaterial)]: { status: 200, body: { message: 'Success', data: material } },
      // The history of the changed item is left out of the answer.
      [route('POST', apiPaths.entryHistories)]: { status: 200, body: { message: 'Success', data: [] } },
    });
    const keyring = new Keyring();
    keyring.unlock(vault);
    const { user } = renderApp('/vault/export', { routes, keyring });
    await screen.findByRole('group', { name: 'Format' });
    await user.type(screen.getByLabelText('Master Password', { exact: true }), master);
    await user.type(screen.getByLabelText('Backup password', { exact: true }), 'a long backup password');
    await user.type(screen.getByLabelText('Backup password again', { exact: true }), 'a long backup password');
    await user.click(screen.getByRole('button', { name: 'Export' }));

    expect(
      await screen.findByText('The server did not send the history of 1 item(s). Nothing was exported.', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(api.requests.some((request) => request.path === apiPaths.entryHistories)).toBe(true);
  });
});
