import { apiPaths } from '@lockit/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AUTO_LOCK_STORAGE_KEY } from '@/lib/auto-lock';
import { Keyring } from '@/lib/keyring';
import { deferred } from '@/testing/deferred';
import { fakeApi, route, signedInRoutes, type FakeAnswer } from '@/testing/fake-api';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { advance, installFakeClockWithRealTime } from '@/testing/timers';
import { fakeEntryRoutes, sealedEntries, sealedEntry, unlockedKeyring } from '@/testing/vault-fixtures';
import { VaultPage } from './vault-page';

const routes = pageRoutes({ '/vault': <VaultPage />, '/signin': <h1>Sign-in page</h1> });
const DENIED = 'Access Denied - You must be logged in to access the Password Vault.';
const EMPTY = 'You haven\'t saved any passwords yet. Click "Add" to get started!';

describe('Vault page: session gate', () => {
  it('checks the session first', async () => {
    const answer = deferred<FakeAnswer>();
    fakeApi({ [route('POST', apiPaths.verifySession)]: () => answer.promise });
    renderApp('/vault', { routes });
    expect(screen.getByText('Checking...')).toBeInTheDocument();
    answer.resolve({ status: 200, body: { message: 'Success' } });
    expect(await screen.findByRole('heading', { name: 'Your Password Vault' })).toBeInTheDocument();
  });

  it('denies access without a session, with a button to sign in', async () => {
    fakeApi();
    const app = renderApp('/vault', { routes });
    expect(await screen.findByText(DENIED)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Your Password Vault' })).not.toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Go to Sign In' }));
    expect(app.pathname()).toBe('/signin');
  });

  it('names the Access Denied page with a heading level one, text unchanged', async () => {
    fakeApi();
    renderApp('/vault', { routes });
    expect(await screen.findByRole('heading', { level: 1, name: DENIED })).toBeInTheDocument();
  });

  it('denies access when the session check fails', async () => {
    fakeApi({ [route('POST', apiPaths.verifySession)]: 'network-error' });
    renderApp('/vault', { routes });
    expect(await screen.findByText(DENIED)).toBeInTheDocument();
  });

  it('denies access when the answer is not "Success", even with an unlocked vault in the tab', async () => {
    const { keyring } = await unlockedKeyring();
    const api = fakeApi({ [route('POST', apiPaths.verifySession)]: { status: 200, body: { message: 'Expired' } } });
    renderApp('/vault', { routes, keyring });
    expect(await screen.findByText(DENIED)).toBeInTheDocument();
    expect(api.to('GET', apiPaths.listEntries)).toHaveLength(0);
  });
});

describe('Vault page: locked and unlocked', () => {
  it('shows the Unlock form, naming the account, when the tab holds no vault key', async () => {
    const api = fakeApi(signedInRoutes());
    renderApp('/vault', { routes, keyring: new Keyring() });
    expect(await screen.findByRole('heading', { name: 'Your Password Vault' })).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'Unlock' });
    expect(within(form).getByText('alice')).toBeInTheDocument();
    expect(within(form).getByLabelText('Master Password')).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Unlock' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add' })).not.toBeInTheDocument();
    expect(api.to('GET', apiPaths.listEntries)).toHaveLength(0);
  });

  it("shows the Unlock form when the tab's vault key belongs to another account", async () => {
    const { keyring } = await unlockedKeyring('bob');
    fakeApi(signedInRoutes());
    renderApp('/vault', { routes, keyring });
    expect(await screen.findByRole('form', { name: 'Unlock' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add' })).not.toBeInTheDocument();
  });

  it('shows the empty state for a vault without entries', async () => {
    const { keyring } = await unlockedKeyring();
    fakeApi({ ...signedInRoutes(), ...fakeEntryRoutes([]).routes });
    renderApp('/vault', { routes, keyring });
    expect(await screen.findByText(EMPTY)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Unlock' })).not.toBeInTheDocument();
  });

  it('lists each entry with service name, user name and a masked password', async () => {
    const { keyring, vault } = await unlockedKeyring();
    const entries = await sealedEntries(vault.vaultKey, [
      { serviceName: 'GitHub', username: 'alice@example.com', password: 'gh-secret' },
      { serviceName: 'Mail', username: 'alice', password: 'mail-secret' },
    ]);
    fakeApi({ ...signedInRoutes(), ...fakeEntryRoutes(entries).routes });
    renderApp('/vault', { routes, keyring });

    const github = await screen.findByRole('listitem', { name: 'GitHub' });
    expect(within(github).getByText('alice@example.com')).toBeInTheDocument();
    expect(within(github).getByText('••••••••')).toBeInTheDocument();
    expect(github).toHaveAttribute('data-entry-id', entries[0]!.id);
    expect(within(screen.getByRole('listitem', { name: 'Mail' })).getByText('••••••••')).toBeInTheDocument();
    expect(screen.queryByText('gh-secret')).not.toBeInTheDocument();
    expect(screen.queryByText(EMPTY)).not.toBeInTheDocument();
    expect(screen.getByTestId('vault-list')).toContainElement(github);
  });

  it('opens on the list the sign-in fetched for this vault key, without fetching it again', async () => {
    const { keyring, vault } = await unlockedKeyring();
    const entries = await sealedEntries(vault.vaultKey, [{ serviceName: 'GitHub', username: 'alice', password: 'gh-secret' }]);
    const api = fakeApi({ ...signedInRoutes(), ...fakeEntryRoutes(entries).routes });
    keyring.holdPrefetchedList(vault.vaultKey, Promise.resolve(entries));
    renderApp('/vault', { routes, keyring });
    expect(await screen.findByRole('listitem', { name: 'GitHub' })).toBeInTheDocument();
    expect(api.to('GET', apiPaths.listEntries)).toHaveLength(0);
  });

  it('logs a failed fetch and shows no message, not even the empty state', async () => {
    const { keyring } = await unlockedKeyring();
    const api = fakeApi({
      ...signedInRoutes(),
      [route('GET', apiPaths.listEntries)]: { status: 500, body: { message: 'Boom.' } },
    });
    renderApp('/vault', { routes, keyring });
    await screen.findByRole('button', { name: 'Add' });
    await expect.poll(() => console.warn).toHaveBeenCalledWith('[Lockit] Loading the vault failed: Boom.');
    expect(api.to('GET', apiPaths.listEntries)).toHaveLength(1);
    expect(screen.queryByText(EMPTY)).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('locks after the configured idle time: the list goes, the Unlock form comes, the session stays', async () => {
    window.localStorage.setItem(AUTO_LOCK_STORAGE_KEY, '1');
    installFakeClockWithRealTime();
    const { keyring, vault } = await unlockedKeyring();
    const entry = await sealedEntry(vault.vaultKey, { serviceName: 'GitHub', username: 'alice', password: 'gh-secret' });
    const api = fakeApi({ ...signedInRoutes(), ...fakeEntryRoutes([entry]).routes });
    renderApp('/vault', { routes, keyring });
    await screen.findByRole('listitem', { name: 'GitHub' });

    await advance(60_000);
    expect(await screen.findByRole('form', { name: 'Unlock' })).toBeInTheDocument();
    expect(screen.queryByRole('listitem', { name: 'GitHub' })).not.toBeInTheDocument();
    expect(screen.queryByText('alice', { selector: '[data-entry-id] *' })).not.toBeInTheDocument();
    expect(keyring.vault).toBeNull();
    expect(api.to('POST', apiPaths.logout)).toHaveLength(0);
  });

  it('accepts entries that carry `_id` instead of `id`', async () => {
    const { keyring, vault } = await unlockedKeyring();
    const { id, ...rest } = await sealedEntry(vault.vaultKey, { serviceName: 'Legacy', username: 'old', password: 'p' });
    fakeApi({
      ...signedInRoutes(),
      [route('GET', apiPaths.listEntries)]: { status: 200, body: { message: 'Success', data: [{ _id: id, ...rest }] } },
    });
    renderApp('/vault', { routes, keyring });
    expect(await screen.findByRole('listitem', { name: 'Legacy' })).toHaveAttribute('data-entry-id', id);
  });
});
