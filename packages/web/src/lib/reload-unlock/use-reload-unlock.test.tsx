import { accountRefOf } from '@lockit/client-core';
import { apiPaths } from '@lockit/contract';
import {
  decryptField,
  deriveVaultIntegrityKey,
  encryptField,
  generateVaultKeyBytes,
  importVaultKey,
  randomSalt,
} from '@lockit/crypto';
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { VaultPage } from '@/features/vault/components/vault-page';
import { AUTO_LOCK_STORAGE_KEY } from '@/lib/auto-lock';
import type { Keyring, UnlockedVault } from '@/lib/keyring';
import { FLOOR_KDF } from '@/testing/crypto-fixtures';
import { fakeApi, route, setSessionHint, signedInRoutes } from '@/testing/fake-api';
import { memoryTabKeyStore } from '@/testing/memory-tab-key-store';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { advance, installFakeClockWithRealTime } from '@/testing/timers';
import { LOCK_ON_RELOAD_STORAGE_KEY, saveLockOnReload } from './lock-on-reload';
import { ORPHAN_AFTER_MS, RELOAD_GAP_MS, sealForReload } from './reload-vault';
import { RELOAD_RECORD_KEY, TAB_LEFT_KEY } from './tab-session';

const routes = pageRoutes({ '/': <p>Any page</p>, '/vault': <VaultPage /> });

/** What sign-in or Unlock hands the keyring: the vault key, and its seal for a reload. */
async function signedInVault(): Promise<{ vault: UnlockedVault; bytes: Uint8Array }> {
  const bytes = generateVaultKeyBytes();
  const vault: UnlockedVault = {
    username: 'alice',
    account: await accountRefOf('alice'),
    vaultKey: await importVaultKey(bytes),
    integrityKey: await deriveVaultIntegrityKey(bytes),
    kdf: FLOOR_KDF,
    salt: randomSalt(),
    protectedKey: 'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA',
    reloadSeal: await sealForReload(bytes),
  };
  return { vault, bytes: bytes.slice() };
}

/** One page load of the app in this tab; the tab keys outlive it, as IndexedDB does. */
function loadPage(tabKeys: ReturnType<typeof memoryTabKeyStore>, path = '/') {
  return renderApp(path, { routes, tabKeyStore: tabKeys.source });
}

/** The page goes (reload, or an address typed in this tab): pagehide, then the document is gone. */
function leavePage(app: ReturnType<typeof loadPage>) {
  window.dispatchEvent(new Event('pagehide'));
  app.unmount();
}

async function unlockedPage(tabKeys: ReturnType<typeof memoryTabKeyStore>) {
  const { vault } = await signedInVault();
  const app = loadPage(tabKeys);
  act(() => app.keyring.unlock(vault));
  await waitFor(() => expect(tabKeys.rows.has(vault.reloadSeal!.id)).toBe(true));
  return { app, vault };
}

/** The restore (if any) of a page load has run its course. */
async function settled(keyring: Keyring) {
  await waitFor(() => expect(keyring.restoring).toBe(false));
}

async function sameKey(a: CryptoKey, b: CryptoKey) {
  const id = crypto.randomUUID();
  return (await decryptField(b, id, 'password', await encryptField(a, id, 'password', 'secret'))) === 'secret';
}

describe('a reload keeps the vault open (decision 0048)', () => {
  it('keeps only a wrapped copy in sessionStorage, and a non-extractable tab key beside it', async () => {
    fakeApi(signedInRoutes());
    const tabKeys = memoryTabKeyStore();
    const { vault } = await unlockedPage(tabKeys);
    expect(tabKeys.rows.size).toBe(1);
    const id = vault.reloadSeal!.id;
    const row = tabKeys.rows.get(id)!;
    expect(row.key.extractable).toBe(false);
    expect(row.key.usages.sort()).toEqual(['encrypt', 'unwrapKey']);

    const record = JSON.parse(window.sessionStorage.getItem(RELOAD_RECORD_KEY)!) as Record<string, unknown>;
    expect(Object.keys(record).sort()).toEqual(['account', 'id', 'kdf', 'protectedKey', 'salt', 'username', 'v', 'wrappedKey']);
    expect(record).toMatchObject({ v: 1, id, username: 'alice', wrappedKey: vault.reloadSeal!.wrappedKey });
    expect(record.wrappedKey).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{64}$/);
    // Nothing of the reload seal in localStorage: the vault key never goes there. (The app's
    // other per-browser memories may be written around an unlock: not what this test is about.)
    const stored = Object.keys(window.localStorage).map((key) => `${key}=${window.localStorage.getItem(key)}`);
    const wrapped = String(record.wrappedKey);
    expect(stored.filter((line) => line.includes(id) || line.includes(wrapped) || /reload/i.test(line))).toEqual([]);
  });

  it('a reload opens the same vault key without the master password', async () => {
    fakeApi(signedInRoutes());
    const tabKeys = memoryTabKeyStore();
    const { app, vault } = await unlockedPage(tabKeys);
    leavePage(app);

    const reloaded = loadPage(tabKeys);
    await settled(reloaded.keyring);
    const restored = reloaded.keyring.vault;
    expect(restored).toMatchObject({ username: 'alice', kdf: FLOOR_KDF, salt: vault.salt, protectedKey: vault.protectedKey });
    expect(restored!.vaultKey.extractable).toBe(false);
    expect(await sameKey(vault.vaultKey, restored!.vaultKey)).toBe(true);
    // A second reload works too: the same seal stays stored.
    leavePage(reloaded);
    const again = loadPage(tabKeys);
    await settled(again.keyring);
    expect(again.keyring.vault).not.toBeNull();
  });

  it('the vault page opens straight on the list after a reload, never flashing the Unlock form', async () => {
    fakeApi({ ...signedInRoutes(), [route('GET', apiPaths.listEntries)]: { status: 200, body: { message: 'OK', data: [] } } });
    const tabKeys = memoryTabKeyStore();
    const { app } = await unlockedPage(tabKeys);
    leavePage(app);
    let sawUnlockForm = false;
    const watch = new MutationObserver(() => {
      sawUnlockForm ||= document.body.textContent.includes('Your vault is locked');
    });
    watch.observe(document.body, { childList: true, subtree: true, characterData: true });
    loadPage(tabKeys, '/vault');
    expect(await screen.findByText(/You haven't saved any passwords yet/)).toBeInTheDocument();
    watch.disconnect();
    expect(sawUnlockForm).toBe(false);
    expect(screen.queryByLabelText('Master Password')).not.toBeInTheDocument();
  });

  it('a new tab (its own, empty sessionStorage) asks for the master password', async () => {
    fakeApi(signedInRoutes());
    const tabKeys = memoryTabKeyStore();
    const { app } = await unlockedPage(tabKeys);
    leavePage(app);
    window.sessionStorage.clear();
    const other = loadPage(tabKeys);
    await settled(other.keyring);
    expect(other.keyring.vault).toBeNull();
  });

  it('a page load long after the tab left (a closed tab reopened) stays locked, and forgets the key', async () => {
    fakeApi(signedInRoutes());
    const tabKeys = memoryTabKeyStore();
    const { app } = await unlockedPage(tabKeys);
    leavePage(app);
    const left = JSON.parse(window.sessionStorage.getItem(TAB_LEFT_KEY)!) as { leftAt: number; activeAt: number };
    // The browser restored the closed tab's sessionStorage; the new page began 10 s after it left.
    const leftAt = Date.now() - performance.now() - RELOAD_GAP_MS - 1;
    window.sessionStorage.setItem(TAB_LEFT_KEY, JSON.stringify({ ...left, leftAt }));

    const reopened = loadPage(tabKeys);
    await settled(reopened.keyring);
    expect(reopened.keyring.vault).toBeNull();
    expect(window.sessionStorage.getItem(RELOAD_RECORD_KEY)).toBeNull();
    expect(tabKeys.rows.size).toBe(0);
  });

  it('a page load without the note of leaving (the tab crashed, or was duplicated) stays locked', async () => {
    fakeApi(signedInRoutes());
    const tabKeys = memoryTabKeyStore();
    const { app } = await unlockedPage(tabKeys);
    app.unmount();
    const next = loadPage(tabKeys);
    await settled(next.keyring);
    expect(next.keyring.vault).toBeNull();
    expect(tabKeys.rows.size).toBe(0);
  });

  it('honours the idle lock across a reload: idle past the auto-lock, the reload stays locked', async () => {
    installFakeClockWithRealTime();
    window.localStorage.setItem(AUTO_LOCK_STORAGE_KEY, '1');
    fakeApi(signedInRoutes());
    const tabKeys = memoryTabKeyStore();
    const { app } = await unlockedPage(tabKeys);
    // Idle 59 s, then the person reloads: still open. The reload is their doing, so the idle
    // lock counts from it, and locks the reloaded tab a minute later.
    await advance(59_000);
    leavePage(app);
    const reloaded = loadPage(tabKeys);
    await settled(reloaded.keyring);
    expect(reloaded.keyring.vault).not.toBeNull();
    await advance(59_000);
    expect(reloaded.keyring.vault).not.toBeNull();
    await advance(1_500);
    expect(reloaded.keyring.vault).toBeNull();
    expect(window.sessionStorage.getItem(RELOAD_RECORD_KEY)).toBeNull();
    await waitFor(() => expect(tabKeys.rows.size).toBe(0));
  });

  it('a reload after the idle limit passed (a tab left idle, then reloaded) stays locked', async () => {
    installFakeClockWithRealTime();
    window.localStorage.setItem(AUTO_LOCK_STORAGE_KEY, '1');
    fakeApi(signedInRoutes());
    const tabKeys = memoryTabKeyStore();
    const { app } = await unlockedPage(tabKeys);
    leavePage(app);
    await advance(61_000);
    // Left just now (a reload), but the last activity was over a minute ago.
    const left = JSON.parse(window.sessionStorage.getItem(TAB_LEFT_KEY)!) as { leftAt: number; activeAt: number };
    window.sessionStorage.setItem(TAB_LEFT_KEY, JSON.stringify({ ...left, leftAt: Date.now() }));
    const reloaded = loadPage(tabKeys);
    await settled(reloaded.keyring);
    expect(reloaded.keyring.vault).toBeNull();
    expect(tabKeys.rows.size).toBe(0);
  });

  it('lock, logout and the idle lock forget the record and delete the tab key at once', async () => {
    fakeApi(signedInRoutes());
    const tabKeys = memoryTabKeyStore();
    const { app } = await unlockedPage(tabKeys);
    act(() => app.keyring.clear());
    expect(window.sessionStorage.getItem(RELOAD_RECORD_KEY)).toBeNull();
    await waitFor(() => expect(tabKeys.rows.size).toBe(0));
    leavePage(app);
    const reloaded = loadPage(tabKeys);
    await settled(reloaded.keyring);
    expect(reloaded.keyring.vault).toBeNull();
  });

  it('"Lock on every reload" forgets what was kept at once, and keeps nothing for later unlocks', async () => {
    fakeApi(signedInRoutes());
    const tabKeys = memoryTabKeyStore();
    const { app } = await unlockedPage(tabKeys);
    act(() => saveLockOnReload(true));
    expect(window.localStorage.getItem(LOCK_ON_RELOAD_STORAGE_KEY)).toBe('true');
    expect(window.sessionStorage.getItem(RELOAD_RECORD_KEY)).toBeNull();
    await waitFor(() => expect(tabKeys.rows.size).toBe(0));

    const { vault } = await signedInVault();
    await act(async () => {
      app.keyring.unlock(vault);
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(window.sessionStorage.getItem(RELOAD_RECORD_KEY)).toBeNull();
    expect(tabKeys.rows.size).toBe(0);
    leavePage(app);
    const reloaded = loadPage(tabKeys);
    await settled(reloaded.keyring);
    expect(reloaded.keyring.vault).toBeNull();
  });

  it('turning "Lock on every reload" off again keeps the open vault for a reload', async () => {
    saveLockOnReload(true);
    fakeApi(signedInRoutes());
    const tabKeys = memoryTabKeyStore();
    const { vault } = await signedInVault();
    const app = loadPage(tabKeys);
    act(() => app.keyring.unlock(vault));
    act(() => saveLockOnReload(false));
    await waitFor(() => expect(tabKeys.rows.size).toBe(1));
    leavePage(app);
    const reloaded = loadPage(tabKeys);
    await settled(reloaded.keyring);
    expect(reloaded.keyring.vault).not.toBeNull();
  });

  it('signed out in another tab (no session hint): the reload stays locked', async () => {
    fakeApi(signedInRoutes());
    const tabKeys = memoryTabKeyStore();
    const { app } = await unlockedPage(tabKeys);
    leavePage(app);
    setSessionHint(false);
    const reloaded = loadPage(tabKeys);
    await settled(reloaded.keyring);
    expect(reloaded.keyring.vault).toBeNull();
    expect(tabKeys.rows.size).toBe(0);
  });

  it('a wrapped key changed in sessionStorage opens nothing and is forgotten', async () => {
    fakeApi(signedInRoutes());
    const tabKeys = memoryTabKeyStore();
    const { app } = await unlockedPage(tabKeys);
    leavePage(app);
    const record = JSON.parse(window.sessionStorage.getItem(RELOAD_RECORD_KEY)!) as { wrappedKey: string };
    const other = await sealForReload(generateVaultKeyBytes());
    window.sessionStorage.setItem(RELOAD_RECORD_KEY, JSON.stringify({ ...record, wrappedKey: other!.wrappedKey }));
    const reloaded = loadPage(tabKeys);
    await settled(reloaded.keyring);
    expect(reloaded.keyring.vault).toBeNull();
    expect(tabKeys.rows.size).toBe(0);
  });

  it('sweeps the tab keys of tabs closed long ago when it stores its own', async () => {
    fakeApi(signedInRoutes());
    const tabKeys = memoryTabKeyStore();
    const stale = await sealForReload(generateVaultKeyBytes());
    await tabKeys.store.put('closed-tab', stale!.tabKey, Date.now() - ORPHAN_AFTER_MS - 1);
    await tabKeys.store.put('open-tab', stale!.tabKey, Date.now() - 60_000);
    await unlockedPage(tabKeys);
    await waitFor(() => expect(tabKeys.rows.has('closed-tab')).toBe(false));
    expect(tabKeys.rows.has('open-tab')).toBe(true);
  });
});
