import { apiPaths } from '@lockit/contract';
import { readOfflineCopy, type AccountRef, type OfflineCopy, type PendingWrite } from '@lockit/client-core';
import { screen, waitFor } from '@testing-library/react';
import * as fakeIndexedDb from 'fake-indexeddb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ProfilePage } from '@/features/profile/components/profile-page';
import { VaultPage } from '@/features/vault/components/vault-page';
import { fakeApi, route, signedInRoutes } from '@/testing/fake-api';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { fakeEntryRoutes, sealedEntry, unlockedKeyring } from '@/testing/vault-fixtures';
import { sealedStateOf, withVaultState } from '@/testing/vault-state-routes';
import { IndexedDbOfflineCopyStore } from './indexeddb-copy-store';
import { KEEP_OFFLINE_COPY_STORAGE_KEY, readKeepOfflineCopy } from './keep-offline-copy';
import { offlineCopies, pendingWriteStore } from './offline-copies';

/** A write queued offline for `account` (a restore: ids and revisions only). */
const queuedRestore = (account: AccountRef): PendingWrite => ({
  v: 1,
  account,
  seq: 1,
  id: crypto.randomUUID(),
  queuedAt: 1,
  kind: 'restore',
  revision: 2,
});

const routes = pageRoutes({ '/vault': <VaultPage />, '/profile': <ProfilePage /> });

beforeEach(async () => {
  // jsdom has no IndexedDB: fake-indexeddb's, for this file only (stubbed globals isolate it).
  for (const [name, value] of Object.entries(fakeIndexedDb)) if (name !== 'default') vi.stubGlobal(name, value);
  await offlineCopies.eraseAll();
  await pendingWriteStore.clearAll();
});

async function vaultOnServer() {
  const { keyring, vault } = await unlockedKeyring();
  const github = await sealedEntry(vault.vaultKey, { serviceName: 'GitHub', username: 'alice', password: 'gh-secret' });
  // A vault some device already protected: the list comes with its sealed state.
  const server = withVaultState(fakeEntryRoutes([github]).routes, await sealedStateOf(vault.integrityKey, [github]));
  const keyMaterial = { kdf: vault.kdf, salt: vault.salt, protectedKey: vault.protectedKey, keyGeneration: 0, keyEpoch: 0 };
  const api = fakeApi({
    ...signedInRoutes(),
    ...server.routes,
    [route('GET', apiPaths.keyMaterial)]: { status: 200, body: { message: 'Success', data: keyMaterial } },
    [route('DELETE', apiPaths.deleteAccount)]: { status: 200, body: { message: 'Account deleted' } },
  });
  return { keyring, vault, github, server, api, keyMaterial };
}

const copyOf = (copy: Partial<OfflineCopy> & Pick<OfflineCopy, 'account'>): OfflineCopy => ({
  v: 1,
  username: 'alice',
  savedAt: 1,
  keyMaterial: {},
  entries: [],
  vaultState: null,
  folders: [],
  ...copy,
});

describe('IndexedDbOfflineCopyStore', () => {
  it("keeps each account's copy apart, reads it back for the core, and erases one or all", async () => {
    const store = new IndexedDbOfflineCopyStore();
    const alice = (await unlockedKeyring('alice')).vault.account;
    const bob = (await unlockedKeyring('bob')).vault.account;
    await store.write(copyOf({ account: alice, entries: [{ id: 'a' }] }));
    await store.write(copyOf({ account: bob, username: 'bob' }));
    expect((await readOfflineCopy(store, alice)).entries).toEqual([{ id: 'a' }]);
    expect((await readOfflineCopy(store, bob)).username).toBe('bob');

    await store.erase(alice);
    await expect(readOfflineCopy(store, alice)).rejects.toThrow('This device has no offline copy of your vault.');
    expect((await readOfflineCopy(store, bob)).username).toBe('bob');
    await store.eraseAll();
    await expect(readOfflineCopy(store, bob)).rejects.toThrow('This device has no offline copy of your vault.');
  });

  it("refuses a record filed under one account that names another (the core's check over IndexedDB)", async () => {
    const store = new IndexedDbOfflineCopyStore();
    const alice = (await unlockedKeyring('alice')).vault.account;
    const bob = (await unlockedKeyring('bob')).vault.account;
    await store.write(copyOf({ account: alice }));
    // Bob's copy filed under alice's key, straight into IndexedDB as any script of the origin could.
    await new Promise<void>((resolve, reject) => {
      const open = indexedDB.open('lockit-offline', 3);
      open.onsuccess = () => {
        const put = open.result
          .transaction('copies', 'readwrite')
          .objectStore('copies')
          .put(copyOf({ account: bob }), alice);
        put.onsuccess = () => {
          open.result.close();
          resolve();
        };
        put.onerror = () => reject(put.error ?? new Error('put failed'));
      };
      open.onerror = () => reject(open.error ?? new Error('open failed'));
    });
    await expect(readOfflineCopy(store, alice)).rejects.toThrow('offline copy of your vault is damaged');
  });
});

describe('Offline copy: saved after each load', () => {
  it('keeps what the server served (ciphertexts, vault state, key material), nothing decrypted', async () => {
    const { keyring, vault, github, server, keyMaterial } = await vaultOnServer();
    renderApp('/vault', { routes, keyring });
    await screen.findByRole('listitem', { name: 'GitHub' });

    await waitFor(async () => expect(await offlineCopies.read(vault.account)).toBeDefined(), { timeout: 5_000 });
    const copy = await readOfflineCopy(offlineCopies, vault.account);
    expect(copy.entries).toEqual([github]);
    expect(copy.vaultState).toBe(server.held.state);
    expect(copy.keyMaterial).toEqual(keyMaterial);
    expect(copy.username).toBe('alice');
    const text = JSON.stringify(copy);
    for (const plain of ['GitHub', 'gh-secret']) expect(text).not.toContain(plain);
  });

  it('keeps none when the setting is off', async () => {
    window.localStorage.setItem(KEEP_OFFLINE_COPY_STORAGE_KEY, 'false');
    const { keyring, vault, api } = await vaultOnServer();
    renderApp('/vault', { routes, keyring });
    await screen.findByRole('listitem', { name: 'GitHub' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await offlineCopies.read(vault.account)).toBeUndefined();
    expect(api.requests.some((request) => request.path === apiPaths.keyMaterial)).toBe(false);
  });
});

describe('Profile: keep an offline copy on this device', () => {
  it('is a switch in Vault Lock, on by default; turning it off erases the copy at once', async () => {
    const { keyring, vault } = await vaultOnServer();
    await offlineCopies.write(copyOf({ account: vault.account }));
    await pendingWriteStore.put(queuedRestore(vault.account));
    const app = renderApp('/profile', { routes, keyring });
    await screen.findByRole('heading', { name: 'alice' });
    const toggle = screen.getByRole('switch', { name: 'Keep an offline copy on this device' });
    expect(toggle).toBeChecked();
    expect(toggle).toHaveAccessibleDescription(/still encrypted/);

    await app.user.click(toggle);
    expect(toggle).not.toBeChecked();
    expect(window.localStorage.getItem(KEEP_OFFLINE_COPY_STORAGE_KEY)).toBe('false');
    expect(readKeepOfflineCopy()).toBe(false);
    await waitFor(async () => expect(await offlineCopies.read(vault.account)).toBeUndefined());
    // Changes still waiting to sync are the person's: turning the copy off keeps them.
    expect(await pendingWriteStore.list(vault.account)).toHaveLength(1);

    await app.user.click(toggle);
    expect(window.localStorage.getItem(KEEP_OFFLINE_COPY_STORAGE_KEY)).toBeNull();
  });

  it('treats anything but "false" as on', () => {
    window.localStorage.setItem(KEEP_OFFLINE_COPY_STORAGE_KEY, 'no');
    expect(readKeepOfflineCopy()).toBe(true);
  });

  it('logout erases the copy and the changes waiting to sync', async () => {
    const { keyring, vault } = await vaultOnServer();
    await offlineCopies.write(copyOf({ account: vault.account }));
    await pendingWriteStore.put(queuedRestore(vault.account));
    const app = renderApp('/profile', { routes, keyring });
    await screen.findByRole('heading', { name: 'alice' });
    await app.user.click(screen.getAllByRole('button', { name: 'Logout' }).at(-1)!);
    await waitFor(async () => expect(await offlineCopies.read(vault.account)).toBeUndefined());
    expect(await pendingWriteStore.list(vault.account)).toEqual([]);
  });

  it('deleting the account erases the copy', async () => {
    const { keyring, vault, api } = await vaultOnServer();
    await offlineCopies.write(copyOf({ account: vault.account }));
    const app = renderApp('/profile', { routes, keyring });
    await screen.findByRole('heading', { name: 'alice' });
    await app.user.click(screen.getByRole('button', { name: 'Delete Account' }));
    await app.user.click(await screen.findByRole('button', { name: 'Yes, Delete' }));
    await waitFor(() => expect(api.requests.some((request) => request.path === apiPaths.deleteAccount)).toBe(true));
    await waitFor(async () => expect(await offlineCopies.read(vault.account)).toBeUndefined());
  });
});
