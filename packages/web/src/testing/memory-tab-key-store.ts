import type { TabKeyStore } from '@/lib/reload-unlock/tab-session';
import type { TabKeyStoreSource } from '@/lib/reload-unlock/use-reload-unlock';

/**
 * The tab key store of decision 0048 for jsdom, which has no IndexedDB: the same four calls on
 * a Map that outlives the rendered app, as IndexedDB outlives a page load. The browser's own
 * store (tab-key-store.ts) runs in the e2e suite, in Chromium.
 */
export function memoryTabKeyStore() {
  const rows = new Map<string, { key: CryptoKey; touchedAt: number }>();
  const store: TabKeyStore = {
    put: async (id, key, touchedAt) => void rows.set(id, { key, touchedAt }),
    get: async (id) => rows.get(id)?.key,
    delete: async (id) => void rows.delete(id),
    sweep: async (before) => {
      for (const [id, row] of rows) if (row.touchedAt < before) rows.delete(id);
    },
  };
  const source: TabKeyStoreSource = async () => store;
  return { store, source, rows };
}
