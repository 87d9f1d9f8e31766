/**
 * What this tab keeps in sessionStorage for a reload (decision 0048). Small and free of zod and
 * the crypto package: the app shell (first paint) asks `hasReloadRecord()` on every page load;
 * reload-vault.ts, loaded only when there is something to open, reads and checks the rest.
 *
 * Security invariant: nothing written here opens the vault by itself. The record's vault key is
 * wrapped under a non-extractable tab key that lives in IndexedDB (tab-key-store.ts), and
 * sessionStorage dies with the tab. The rest (user name, KDF params, salt, protectedKey) is
 * what the server hands any signed-in page anyway.
 */
export const RELOAD_RECORD_KEY = 'lockit.reloadVault';
/** When this tab last left a page of the app, and when the person was last active before that. */
export const TAB_LEFT_KEY = 'lockit.tabLeft';

/** Where the non-extractable tab keys live: IndexedDB in the browser (tab-key-store.ts). */
export interface TabKeyStore {
  put(id: string, key: CryptoKey, touchedAt: number): Promise<void>;
  get(id: string): Promise<CryptoKey | undefined>;
  delete(id: string): Promise<void>;
  /** Deletes every key not touched since `before`: those of tabs closed without locking. */
  sweep(before: number): Promise<void>;
}

export interface TabLeft {
  leftAt: number;
  activeAt: number;
}

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    // Disabled storage: nothing is kept, a reload asks for the master password as before.
    return null;
  }
}

export function hasReloadRecord(): boolean {
  return storage()?.getItem(RELOAD_RECORD_KEY) != null;
}

export function readReloadRecord(): string | null {
  return storage()?.getItem(RELOAD_RECORD_KEY) ?? null;
}

/** The tab key id the record names, if it names one; for deleting that key. */
export function reloadRecordId(): string | undefined {
  const text = readReloadRecord();
  if (text === null) return undefined;
  try {
    const id = (JSON.parse(text) as { id?: unknown } | null)?.id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** False when the storage refused it (full, disabled): the reload then asks for the password. */
export function writeReloadRecord(text: string): boolean {
  try {
    const store = storage();
    store?.setItem(RELOAD_RECORD_KEY, text);
    return store !== null;
  } catch {
    return false;
  }
}

export function removeReloadRecord(): void {
  const store = storage();
  store?.removeItem(RELOAD_RECORD_KEY);
  store?.removeItem(TAB_LEFT_KEY);
}

/** Written as the page goes (pagehide): a reload is a page load that starts right after it. */
export function noteTabLeft(activeAt: number, now = Date.now()): void {
  try {
    storage()?.setItem(TAB_LEFT_KEY, JSON.stringify({ leftAt: now, activeAt } satisfies TabLeft));
  } catch {
    // Not kept: the next page load asks for the master password.
  }
}

/** Read once, by the page load that follows: a later load (a reopened tab) finds none. */
export function takeTabLeft(): TabLeft | null {
  const store = storage();
  const text = store?.getItem(TAB_LEFT_KEY) ?? null;
  store?.removeItem(TAB_LEFT_KEY);
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as Partial<TabLeft> | null;
    if (typeof value?.leftAt === 'number' && typeof value.activeAt === 'number') {
      return { leftAt: value.leftAt, activeAt: value.activeAt };
    }
  } catch {
    // Edited by hand or damaged: nothing to go on, so the vault stays locked.
  }
  return null;
}
