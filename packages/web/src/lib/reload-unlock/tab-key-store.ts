import type { TabKeyStore } from './tab-session';

const DB_NAME = 'lockit-tab-keys';
const STORE = 'keys';

interface StoredTabKey {
  id: string;
  /** Structured clone keeps a CryptoKey's `extractable: false`: script can use it, never read it. */
  key: CryptoKey;
  touchedAt: number;
}

/**
 * The tab keys of reload-unlock (decision 0048) in IndexedDB, the one web storage that holds a
 * CryptoKey as an object rather than as bytes. Undefined where the browser has none (or refuses
 * it, as some private modes do): a reload then asks for the master password, as before.
 *
 * Hand-written (five calls on one object store) because no IndexedDB helper is installed in
 * the workspace; idb-keyval would do the same.
 */
export function indexedDbTabKeyStore(): TabKeyStore | undefined {
  if (typeof indexedDB === 'undefined') return undefined;
  let opened: Promise<IDBDatabase> | undefined;
  const db = () => (opened ??= open());

  const run = async <T>(
    mode: IDBTransactionMode,
    work: (store: IDBObjectStore) => IDBRequest<T> | void,
  ): Promise<T | undefined> => {
    const database = await db();
    return new Promise<T | undefined>((resolve, reject) => {
      const transaction = database.transaction(STORE, mode);
      const request = work(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(request ? request.result : undefined);
      transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed.'));
      transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted.'));
    });
  };

  return {
    async put(id, key, touchedAt) {
      await run('readwrite', (store) => store.put({ id, key, touchedAt } satisfies StoredTabKey));
    },
    async get(id) {
      const found = (await run<StoredTabKey | undefined>('readonly', (store) => store.get(id))) as StoredTabKey | undefined;
      return found?.key instanceof CryptoKey ? found.key : undefined;
    },
    async delete(id) {
      await run('readwrite', (store) => store.delete(id));
    },
    async sweep(before) {
      await run('readwrite', (store) => {
        const cursor = store.openCursor();
        cursor.onsuccess = () => {
          const row = cursor.result;
          if (!row) return;
          const value = row.value as Partial<StoredTabKey> | undefined;
          if (typeof value?.touchedAt !== 'number' || value.touchedAt < before) row.delete();
          row.continue();
        };
      });
    },
  };
}

/** Opens the database, making the store if it is missing (a database made by other code, or emptied). */
function open(version?: number): Promise<IDBDatabase> {
  return new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, version);
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(STORE)) request.result.createObjectStore(STORE, { keyPath: 'id' });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB could not be opened.'));
  }).then((database) => {
    if (database.objectStoreNames.contains(STORE)) return database;
    const next = database.version + 1;
    database.close();
    return open(next);
  });
}
