import { useEffect } from 'react';
import { readAutoLockMinutes } from '../auto-lock';
import type { Keyring, ReloadSeal } from '../keyring';
import { useKeyring } from '../keyring-context';
import { maybeSignedIn } from '../session-hint';
import { readLockOnReload, subscribeLockOnReload } from './lock-on-reload';
import { hasReloadRecord, noteTabLeft, reloadRecordId, removeReloadRecord, type TabKeyStore } from './tab-session';

/** The tab key store: IndexedDB in the browser; tests pass one of their own. */
export type TabKeyStoreSource = () => Promise<TabKeyStore | undefined>;

const indexedDbStore: TabKeyStoreSource = () => import('./tab-key-store').then((m) => m.indexedDbTabKeyStore());
const reloadVault = () => import('./reload-vault');

/**
 * A reload keeps the vault open (decision 0048). Mounted once in the app's providers, in the
 * running app only (an effect: the prerendered pages never run it). It
 * - opens, at page load, the vault this tab kept for a reload, when reload-vault.ts's rules allow;
 * - keeps the current unlock's seal in storage while "Lock on every reload" is off, and
 *   forgets it (record and tab key) on lock, logout, idle lock, and when the choice turns on;
 * - notes, as the page goes, when it left and when the person was last active.
 * Only this tab's storage is touched; the code that reads keys and zod loads only when needed.
 */
export function useReloadUnlock(storeSource: TabKeyStoreSource = indexedDbStore): void {
  const keyring = useKeyring();
  useEffect(() => {
    let store: Promise<TabKeyStore | undefined> | undefined;
    const getStore = () => (store ??= storeSource().catch(() => undefined));
    if (keyring.vault === null && !keyring.restoring && hasReloadRecord()) void restore(keyring, getStore);

    let persisted: ReloadSeal | undefined;
    const forget = () => {
      const id = persisted?.id ?? reloadRecordId();
      persisted = undefined;
      removeReloadRecord();
      if (id !== undefined) void getStore().then((found) => found?.delete(id).catch(() => undefined));
    };
    const follow = () => {
      if (keyring.restoring) return;
      const vault = keyring.vault;
      const seal = vault?.reloadSeal;
      if (!vault || !seal || readLockOnReload()) {
        if (persisted || hasReloadRecord()) forget();
        return;
      }
      const replaced = persisted && persisted !== seal ? persisted.id : undefined;
      persisted = seal;
      // Rewritten on every change too (a new user name, a password change's new salt).
      void Promise.all([getStore(), reloadVault()]).then(async ([found, { persistSeal }]) => {
        if (!found || persisted !== seal) return;
        if (replaced !== undefined) await found.delete(replaced).catch(() => undefined);
        await persistSeal(found, vault, seal).catch(() => removeReloadRecord());
      });
    };
    const onPageHide = () => {
      if (persisted && keyring.vault?.reloadSeal === persisted) noteTabLeft(keyring.lastActivityAt);
    };
    // A tab in use keeps its key from being swept as an orphan by another tab.
    const touch = setInterval(() => {
      const seal = persisted;
      if (seal) void getStore().then((found) => found?.put(seal.id, seal.tabKey, keyring.lastActivityAt).catch(() => undefined));
    }, TOUCH_EVERY_MS);

    const unsubscribe = keyring.subscribe(follow);
    const unsubscribeChoice = subscribeLockOnReload(follow);
    window.addEventListener('pagehide', onPageHide);
    follow();
    return () => {
      unsubscribe();
      unsubscribeChoice();
      window.removeEventListener('pagehide', onPageHide);
      clearInterval(touch);
    };
  }, [keyring, storeSource]);
}

/** Same value as reload-vault.ts's, here to keep that module (zod, crypto) out of the app shell. */
const TOUCH_EVERY_MS = 5 * 60_000;

async function restore(keyring: Keyring, getStore: () => Promise<TabKeyStore | undefined>): Promise<void> {
  keyring.setRestoring(true);
  try {
    const store = await getStore();
    const { restoreFromReload, forgetReload } = await reloadVault();
    // Logged out in another tab (the server cleared its hint cookie), or the choice is now on.
    if (!store || !maybeSignedIn() || readLockOnReload()) {
      await forgetReload(store, reloadRecordId());
      return;
    }
    const vault = await restoreFromReload({
      store,
      // The navigation's start on the clock Date.now() reads (performance.timeOrigin may differ
      // from it by the wall clock's adjustments since).
      pageStartedAt: Date.now() - performance.now(),
      autoLockMs: readAutoLockMinutes() * 60_000,
    });
    // Unless the person unlocked (or signed in) meanwhile, or locked.
    if (vault && keyring.restoring && keyring.vault === null) keyring.unlock(vault);
  } catch {
    removeReloadRecord();
  } finally {
    keyring.setRestoring(false);
  }
}
