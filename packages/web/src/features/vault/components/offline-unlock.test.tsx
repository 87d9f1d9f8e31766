import { accountRefOf, type OfflineCopy } from '@lockit/client-core';
import { apiPaths, type EntryWire } from '@lockit/contract';
import { deriveVaultIntegrityKey, importVaultKey } from '@lockit/crypto';
import { screen, waitFor, within } from '@testing-library/react';
import * as fakeIndexedDb from 'fake-indexeddb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { offlineCopies, pendingWriteStore } from '@/lib/offline/offline-copies';
import { makeAccountKeys } from '@/testing/crypto-fixtures';
import { bindSessionInThisBrowser, fakeApi, route, routePrefix, type FakeRoute } from '@/testing/fake-api';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { sealedEntry } from '@/testing/vault-fixtures';
import { sealedStateOf } from '@/testing/vault-state-routes';
import { INTEGRITY_ALERT_HEADING } from '../integrity/integrity-report-text';
import { VaultPage } from './vault-page';

const routes = pageRoutes({ '/vault': <VaultPage /> });
const MASTER = 'correct horse battery staple';
const SAVED_AT = Date.parse('2026-11-20T09:30:00Z');

beforeEach(async () => {
  // jsdom has no IndexedDB: fake-indexeddb's, for this file only (stubbed globals isolate it).
  for (const [name, value] of Object.entries(fakeIndexedDb)) if (name !== 'default') vi.stubGlobal(name, value);
  await offlineCopies.eraseAll();
  await pendingWriteStore.clearAll();
});

/** A browser that signed in as alice and kept a copy of her vault (GitHub and Mail) on this device. */
async function deviceWithCopy(change: (copy: OfflineCopy, entries: EntryWire[]) => OfflineCopy = (copy) => copy) {
  bindSessionInThisBrowser('alice');
  const keys = await makeAccountKeys(MASTER);
  const vaultKey = await importVaultKey(keys.vaultKeyBytes.slice());
  const integrityKey = await deriveVaultIntegrityKey(keys.vaultKeyBytes.slice());
  const entries = [
    await sealedEntry(vaultKey, { serviceName: 'GitHub', username: 'alice', password: 'gh-secret' }),
    await sealedEntry(vaultKey, { serviceName: 'Mail', username: 'alice', password: 'mail-secret' }),
  ];
  const copy: OfflineCopy = {
    v: 1,
    account: await accountRefOf('alice'),
    username: 'alice',
    savedAt: SAVED_AT,
    keyMaterial: { kdf: keys.kdf, salt: keys.salt, protectedKey: keys.protectedKey, keyGeneration: 0, keyEpoch: 0 },
    entries,
    vaultState: await sealedStateOf(integrityKey, entries),
    folders: [],
  };
  await offlineCopies.write(change(copy, entries));
}

/** The server does not answer at all (stopped, or no network). */
function serverDown() {
  const down: FakeRoute = 'network-error';
  return fakeApi({
    [route('POST', apiPaths.verifySession)]: down,
    [route('POST', apiPaths.refreshToken)]: down,
    [routePrefix('PUT', apiPaths.updateEntry(''))]: down,
  });
}

async function unlockOffline(password = MASTER) {
  const app = renderApp('/vault', { routes });
  const form = await screen.findByRole('form', { name: 'Unlock' });
  expect(within(form).getByRole('status')).toHaveTextContent(/Offline: Lockit cannot reach your server/);
  await app.user.type(within(form).getByLabelText('Master Password'), password);
  await app.user.click(within(form).getByRole('button', { name: 'Unlock' }));
  return app;
}

describe('Vault: Unlock with the server unreachable', () => {
  it('opens the copy on this device with the master password, and says it is offline, since when and that changes wait', async () => {
    await deviceWithCopy();
    const api = serverDown();
    await unlockOffline();
    expect(await screen.findByRole('listitem', { name: 'GitHub' })).toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'Mail' })).toBeInTheDocument();
    const notice = screen
      .getAllByRole('status')
      .find((element) => /kept encrypted on this device/.test(element.textContent ?? ''))!;
    expect(notice).toHaveTextContent('Offline: Lockit cannot reach your server.');
    expect(notice).toHaveTextContent(new Date(SAVED_AT).getFullYear().toString());
    // Nothing asked of the server for the vault: the copy is the vault.
    expect(api.requests.some((request) => request.path === apiPaths.listEntries)).toBe(false);
    expect(screen.queryByText(INTEGRITY_ALERT_HEADING)).toBeNull();
  });

  it('keeps an edit made offline sealed on this device, shows it waiting, and again after a reload', async () => {
    await deviceWithCopy();
    serverDown();
    const app = await unlockOffline();
    await app.user.click(await screen.findByRole('button', { name: 'Edit GitHub' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Password' });
    await app.user.clear(within(dialog).getByLabelText('Username'));
    await app.user.type(within(dialog).getByLabelText('Username'), 'alice.offline');
    await app.user.click(within(dialog).getByRole('button', { name: 'Save' }));

    const row = await screen.findByRole('listitem', { name: 'GitHub' });
    expect(await within(row).findByText('Waiting to sync')).toBeInTheDocument();
    // The badge and the edited row are two updates: on a busy machine one can paint first.
    await waitFor(() => expect(screen.getByRole('listitem', { name: 'GitHub' })).toHaveTextContent('alice.offline'));
    expect(within(screen.getByRole('listitem', { name: 'Mail' })).queryByText('Waiting to sync')).toBeNull();
    expect(screen.getByText(/1 change is waiting to sync/)).toBeInTheDocument();
    const stored = JSON.stringify(await pendingWriteStore.list(await accountRefOf('alice')));
    expect(stored).toContain('"kind":"update"');
    expect(stored).not.toContain('alice.offline');

    // The tab closed and opened again, still without a server: the edit is shown, still waiting.
    app.unmount();
    await unlockOffline();
    const again = await screen.findByRole('listitem', { name: 'GitHub' });
    expect(await within(again).findByText('Waiting to sync')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('listitem', { name: 'GitHub' })).toHaveTextContent('alice.offline'));
  });

  it('offers the copy when the server has not answered the session check within 2 s', async () => {
    await deviceWithCopy();
    const silent: FakeRoute = () => new Promise(() => {});
    fakeApi({ [route('POST', apiPaths.verifySession)]: silent });
    const started = Date.now();
    renderApp('/vault', { routes });
    expect(screen.getByText('Checking...')).toBeInTheDocument();
    const form = await screen.findByRole('form', { name: 'Unlock' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    expect(within(form).getByRole('status')).toHaveTextContent(/Offline: Lockit cannot reach your server/);
  });

  it('refuses a wrong master password plainly, as online', async () => {
    await deviceWithCopy();
    serverDown();
    await unlockOffline('not the password');
    expect(await screen.findByRole('alert')).toHaveTextContent(/master password/i);
    expect(screen.queryByRole('listitem', { name: 'GitHub' })).toBeNull();
  });

  it('checks the copy like a served vault: an entry taken out of it is reported', async () => {
    await deviceWithCopy((copy, entries) => ({ ...copy, entries: entries.slice(0, 1) }));
    serverDown();
    await unlockOffline();
    expect(await screen.findByText(INTEGRITY_ALERT_HEADING)).toBeInTheDocument();
  });

  it('refuses a copy that is not one this version wrote', async () => {
    await deviceWithCopy((copy) => ({ ...copy, entries: 'tampered' as unknown as unknown[] }));
    serverDown();
    await unlockOffline();
    expect(await screen.findByRole('alert')).toHaveTextContent("This device's offline copy of your vault is damaged");
  });

  it('still says Access Denied on a device with no copy', async () => {
    bindSessionInThisBrowser('alice');
    serverDown();
    renderApp('/vault', { routes });
    expect(await screen.findByText(/Access Denied/)).toBeInTheDocument();
  });
});
