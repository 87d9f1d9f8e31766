import { apiPaths, type AddEntryRequest, type UpdateEntryRequest } from '@lockit/contract';
import { CIPHERTEXT_PATTERN, OVERVIEW_CIPHERTEXT_PATTERN } from '@lockit/crypto';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { deferred } from '@/testing/deferred';
import { fakeApi, route, routePrefix, signedInRoutes, type FakeAnswer, type FakeRoute } from '@/testing/fake-api';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import {
  fakeEntryRoutes,
  listedNames,
  openSealed,
  sealedEntries,
  sealedEntry,
  unlockedKeyring,
  type PlainEntry,
} from '@/testing/vault-fixtures';
import { VaultPage } from './vault-page';

const routes = pageRoutes({ '/vault': <VaultPage /> });
// Every AES-GCM decryption, watched: an entry field's associated data names its entry
// (`lockit/v<n>/entry|<id>|<field>`, inside a bound overview's too), so the ids decrypted are read from the calls, whichever
// module made them. A change must decrypt its own entry only, never the list.
let decrypt: MockInstance<SubtleCrypto['decrypt']>;
beforeEach(() => {
  decrypt = vi.spyOn(crypto.subtle, 'decrypt');
});
const decryptedIds = () =>
  decrypt.mock.calls
    .map(([algorithm]) => (algorithm as AesGcmParams).additionalData)
    .map((aad) => (aad ? /lockit\/v\d+\/entry\|([^|]+)\|/.exec(new TextDecoder().decode(aad as ArrayBuffer))?.[1] : undefined))
    .filter((id): id is string => id !== undefined);
const clearDecryptions = () => decrypt.mockClear();

async function openVault(plains: PlainEntry[], overrides: Record<string, FakeRoute> = {}) {
  const { keyring, vault } = await unlockedKeyring();
  const entries = await sealedEntries(vault.vaultKey, plains);
  const server = fakeEntryRoutes(entries, overrides);
  const api = fakeApi({ ...signedInRoutes(), ...server.routes });
  const app = renderApp('/vault', { routes, keyring });
  await screen.findByRole('button', { name: 'Add' });
  await waitFor(() => expect(screen.queryByText('Decrypting your vault…')).not.toBeInTheDocument());
  return { api, app, entries, server, vaultKey: vault.vaultKey };
}

const GITHUB = { serviceName: 'GitHub', username: 'alice', password: 'gh-secret' };

describe('Vault: add', () => {
  it('sends ciphertexts bound to a new id, never plaintext, shows the entry and clears the form', async () => {
    const { api, app, vaultKey } = await openVault([]);
    await app.user.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New Password' });
    await app.user.type(within(dialog).getByLabelText('Service'), 'Mail');
    await app.user.type(within(dialog).getByLabelText('Username'), 'alice@example.com');
    await app.user.type(within(dialog).getByLabelText('Password'), 'mail-secret');
    await app.user.type(within(dialog).getByLabelText('URL (optional)'), 'https://mail.example.com');
    await app.user.click(within(dialog).getByRole('button', { name: 'Add' }));

    const row = await screen.findByRole('listitem', { name: 'Mail' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    const [request] = api.to('POST', apiPaths.addEntry);
    const body = request!.body as AddEntryRequest;
    expect(row).toHaveAttribute('data-entry-id', body.id);
    expect(Object.keys(body).sort()).toEqual(['id', 'overview', 'password', 'serviceName', 'url', 'username']);
    for (const field of ['serviceName', 'username', 'password', 'url'] as const) expect(body[field]).toMatch(CIPHERTEXT_PATTERN);
    expect(body.overview).toMatch(OVERVIEW_CIPHERTEXT_PATTERN);
    expect(JSON.stringify(body)).not.toMatch(/Mail|alice|mail-secret|example/);
    const opened = await openSealed(vaultKey, body.id, body);
    expect(opened).toMatchObject({ password: 'mail-secret', url: 'https://mail.example.com' });
    expect(opened.overview).toMatchObject({ type: 'login', urls: ['https://mail.example.com'] });

    await app.user.click(screen.getByRole('button', { name: 'Add' }));
    const again = screen.getByRole('dialog', { name: 'Add New Password' });
    for (const label of ['Service', 'Username', 'Password', 'URL (optional)', 'Notes (optional)']) {
      expect(within(again).getByLabelText(label)).toHaveValue('');
    }
  });

  it('appends the entry to an existing list', async () => {
    const { app } = await openVault([GITHUB]);
    await app.user.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New Password' });
    await app.user.type(within(dialog).getByLabelText('Service'), 'Bank');
    await app.user.type(within(dialog).getByLabelText('Username'), 'a');
    await app.user.type(within(dialog).getByLabelText('Password'), 'b');
    await app.user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByRole('listitem', { name: 'Bank' })).toBeInTheDocument();
    expect(listedNames()).toEqual(['Bank', 'GitHub']);
  });

  it('sends nothing while a required field is empty', async () => {
    const { api, app } = await openVault([]);
    await app.user.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New Password' });
    await app.user.type(within(dialog).getByLabelText('Service'), 'Mail');
    await app.user.type(within(dialog).getByLabelText('Password'), 'x');
    await app.user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getByLabelText('Username')).toBeRequired();
    expect(screen.getByRole('dialog', { name: 'Add New Password' })).toBeInTheDocument();
    expect(api.to('POST', apiPaths.addEntry)).toHaveLength(0);
  });

  it('keeps the modal open with what was typed when the save fails, and only logs', async () => {
    const { api, app } = await openVault([], {
      [route('POST', apiPaths.addEntry)]: { status: 500, body: { message: 'Disk full.' } },
    });
    await app.user.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New Password' });
    await app.user.type(within(dialog).getByLabelText('Service'), 'Mail');
    await app.user.type(within(dialog).getByLabelText('Username'), 'alice');
    await app.user.type(within(dialog).getByLabelText('Password'), 'typed with care');
    await app.user.type(within(dialog).getByLabelText('Notes (optional)'), 'recovery codes');
    await app.user.click(within(dialog).getByRole('button', { name: 'Add' }));

    await waitFor(() => expect(console.warn).toHaveBeenCalledWith('[Lockit] Add New Password failed: Disk full.'));
    expect(api.to('POST', apiPaths.addEntry)).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: 'Add New Password' })).toBe(dialog);
    expect(within(dialog).getByLabelText('Service')).toHaveValue('Mail');
    expect(within(dialog).getByLabelText('Password')).toHaveValue('typed with care');
    expect(within(dialog).getByLabelText('Notes (optional)')).toHaveValue('recovery codes');
    expect(within(dialog).getByRole('button', { name: 'Add' })).toBeEnabled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('keeps an entry added while the list is still loading', async () => {
    const { keyring, vault } = await unlockedKeyring();
    const existing = await sealedEntries(vault.vaultKey, [GITHUB]);
    const server = fakeEntryRoutes(existing);
    const list = deferred<FakeAnswer>();
    fakeApi({ ...signedInRoutes(), ...server.routes, [route('GET', apiPaths.listEntries)]: () => list.promise });
    const app = renderApp('/vault', { routes, keyring });
    await app.user.click(await screen.findByRole('button', { name: 'Add' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New Password' });
    await app.user.type(within(dialog).getByLabelText('Service'), 'Early');
    await app.user.type(within(dialog).getByLabelText('Username'), 'e');
    await app.user.type(within(dialog).getByLabelText('Password'), 'e');
    await app.user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    list.resolve({ status: 200, body: { message: 'Success', data: existing } });
    expect(await screen.findByRole('listitem', { name: 'Early' })).toBeInTheDocument();
    expect(listedNames()).toEqual(['Early', 'GitHub']);
  });
});

describe('Vault: edit', () => {
  it('opens with the decrypted values, re-encrypts the entry alone and replaces it in place', async () => {
    const { api, app, entries, vaultKey } = await openVault([
      GITHUB,
      { serviceName: 'Mail', username: 'm', password: 'mail-secret', notes: 'old note' },
    ]);
    await app.user.click(screen.getByRole('button', { name: 'Edit Mail' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Password' });
    expect(within(dialog).getByLabelText('Service')).toHaveValue('Mail');
    expect(within(dialog).getByLabelText('Username')).toHaveValue('m');
    expect(within(dialog).getByLabelText('Password')).toHaveValue('mail-secret');
    expect(within(dialog).getByLabelText('Notes (optional)')).toHaveValue('old note');

    await app.user.clear(within(dialog).getByLabelText('Service'));
    await app.user.type(within(dialog).getByLabelText('Service'), 'Webmail');
    await app.user.clear(within(dialog).getByLabelText('Notes (optional)'));
    await app.user.click(within(dialog).getByRole('button', { name: 'Save' }));

    const row = await screen.findByRole('listitem', { name: 'Webmail' });
    const mail = entries[1]!;
    expect(row).toHaveAttribute('data-entry-id', mail.id);
    expect(screen.queryByRole('listitem', { name: 'Mail' })).not.toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'GitHub' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    const [request] = api.to('PUT', apiPaths.updateEntry(mail.id));
    const body = request!.body as UpdateEntryRequest;
    expect(body).toMatchObject({ id: mail.id, revision: 1, notes: null });
    expect(body.password).not.toBe(mail.password);
    expect(await openSealed(vaultKey, mail.id, body)).toMatchObject({
      serviceName: 'Webmail',
      password: 'mail-secret',
      notes: null,
    });
    expect(JSON.stringify(body)).not.toMatch(/Webmail|mail-secret/);
    // Only the one entry: the list was fetched once, nothing else was written.
    expect(api.to('GET', apiPaths.listEntries)).toHaveLength(1);
    expect(api.requests.filter((r) => r.method === 'PUT' && r.path !== apiPaths.vaultState)).toHaveLength(1);
  });

  it('keeps the modal open with the changes when the save fails, logs, and says so without blocking', async () => {
    const { app } = await openVault([GITHUB], {
      [routePrefix('PUT', apiPaths.updateEntry(''))]: { status: 503, body: { message: 'Busy.' } },
    });
    await app.user.click(screen.getByRole('button', { name: 'Edit GitHub' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Password' });
    await app.user.clear(within(dialog).getByLabelText('Password'));
    await app.user.type(within(dialog).getByLabelText('Password'), 'my new password');
    await app.user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(console.warn).toHaveBeenCalledWith('[Lockit] Edit Password failed: Busy.'));
    expect(screen.getByRole('dialog', { name: 'Edit Password' })).toBe(dialog);
    expect(within(dialog).getByLabelText('Password')).toHaveValue('my new password');
    expect(
      within(dialog).getByText(/Could not save: the server had a problem\. .*Your changes are still in the form\./),
    ).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows both versions when the entry changed elsewhere (stale revision); Cancel keeps the form as typed', async () => {
    const { api, app, entries, server, vaultKey } = await openVault([GITHUB]);
    server.store.set(
      entries[0]!.id,
      await sealedEntry(vaultKey, { ...GITHUB, notes: 'added elsewhere' }, { id: entries[0]!.id, revision: 2 }),
    );
    await app.user.click(screen.getByRole('button', { name: 'Edit GitHub' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Password' });
    await app.user.clear(within(dialog).getByLabelText('Password'));
    await app.user.type(within(dialog).getByLabelText('Password'), 'my new password');
    await app.user.click(within(dialog).getByRole('button', { name: 'Save' }));

    const conflict = await screen.findByRole('dialog', { name: 'Changed elsewhere' });
    await app.user.click(within(conflict).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: 'Changed elsewhere' })).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Edit Password' })).toBe(dialog);
    expect(within(dialog).getByLabelText('Password')).toHaveValue('my new password');
    expect(within(dialog).getByText(/Not saved: this entry was changed elsewhere/)).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === 'PUT' && r.path !== apiPaths.vaultState)).toHaveLength(1);
  });

  it('Cancel closes without sending anything', async () => {
    const { api, app } = await openVault([GITHUB]);
    await app.user.click(screen.getByRole('button', { name: 'Edit GitHub' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Password' });
    await app.user.type(within(dialog).getByLabelText('Service'), ' changed');
    await app.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'GitHub' })).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === 'PUT' && r.path !== apiPaths.vaultState)).toHaveLength(0);
  });
});

describe('Vault: delete', () => {
  it('asks for confirmation, then deletes and removes the entry locally', async () => {
    const { api, app, entries } = await openVault([GITHUB, { serviceName: 'Mail', username: 'm', password: 'p' }]);
    await app.user.click(screen.getByRole('button', { name: 'Delete GitHub' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Password' });
    expect(within(dialog).getByText('Are you sure you want to delete this password?')).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);

    await app.user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'GitHub' })).not.toBeInTheDocument());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'Mail' })).toBeInTheDocument();
    // Focus moves in the effects after the commit that closed the dialog: the list's change can
    // be seen before they ran.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add' })).toHaveFocus());
    expect(api.to('DELETE', apiPaths.deleteEntry(entries[0]!.id))).toHaveLength(1);
    expect(api.to('GET', apiPaths.listEntries)).toHaveLength(1);
  });

  it('Cancel keeps the entry and sends nothing', async () => {
    const { api, app } = await openVault([GITHUB]);
    await app.user.click(screen.getByRole('button', { name: 'Delete GitHub' }));
    await app.user.click(within(screen.getByRole('dialog', { name: 'Delete Password' })).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'GitHub' })).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);
  });

  it('keeps the entry when the delete fails, and only logs', async () => {
    const { app } = await openVault([GITHUB], { [routePrefix('DELETE', apiPaths.deleteEntry(''))]: 'network-error' });
    await app.user.click(screen.getByRole('button', { name: 'Delete GitHub' }));
    await app.user.click(within(screen.getByRole('dialog', { name: 'Delete Password' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(console.warn).toHaveBeenCalledWith(
      '[Lockit] Deleting a password failed: Network error: the server could not be reached.',
    );
    expect(screen.getByRole('listitem', { name: 'GitHub' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('removes the entry when the server no longer has it (404)', async () => {
    const { app, entries, server } = await openVault([GITHUB]);
    server.store.delete(entries[0]!.id);
    await app.user.click(screen.getByRole('button', { name: 'Delete GitHub' }));
    await app.user.click(within(screen.getByRole('dialog', { name: 'Delete Password' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'GitHub' })).not.toBeInTheDocument());
  });
});

describe('Vault: changes touch one entry', () => {
  const many = Array.from({ length: 40 }, (_, i) => ({
    serviceName: `Service ${String(i).padStart(2, '0')}`,
    username: 'u',
    password: `p${i}`,
  }));

  it('add, edit and delete decrypt only the entry they change', async () => {
    const { app, api, entries } = await openVault(many);
    await screen.findByRole('listitem', { name: 'Service 00' });

    clearDecryptions();
    await app.user.click(screen.getByRole('button', { name: 'Edit Service 00' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Password' });
    await app.user.type(within(dialog).getByLabelText('Username'), '2');
    await app.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(new Set(decryptedIds())).toEqual(new Set([entries[0]!.id]));

    clearDecryptions();
    await app.user.click(screen.getByRole('button', { name: 'Add' }));
    const add = screen.getByRole('dialog', { name: 'Add New Password' });
    await app.user.type(within(add).getByLabelText('Service'), 'New');
    await app.user.type(within(add).getByLabelText('Username'), 'n');
    await app.user.type(within(add).getByLabelText('Password'), 'n');
    await app.user.click(within(add).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The new row drawn: its own decryptions are done, and none of them spills into the next step.
    await screen.findByRole('listitem', { name: 'New' });
    const added = (api.to('POST', apiPaths.addEntry)[0]!.body as AddEntryRequest).id;
    expect(new Set(decryptedIds())).toEqual(new Set([added]));

    clearDecryptions();
    await app.user.click(screen.getByRole('button', { name: 'Delete Service 00' }));
    await app.user.click(within(screen.getByRole('dialog', { name: 'Delete Password' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Service 00' })).not.toBeInTheDocument());
    // Only the server's answer, the entry as it went to Trash, is opened.
    expect([...new Set(decryptedIds())].filter((id) => id !== entries[0]!.id)).toEqual([]);
    expect(api.to('GET', apiPaths.listEntries)).toHaveLength(1);
  });
});
