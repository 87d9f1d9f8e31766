import { DeviceMemory, MemoryKeyValueStore, type KeyValueStore } from '@lockit/client-core';

/**
 * localStorage as the client core's durable store. Where the browser refuses storage (a
 * private mode that throws, a full quota), what it cannot keep lives in this tab's memory
 * instead: the tab still knows which account it signed in as, and a later tab remembers less.
 */
class LocalStorageStore implements KeyValueStore {
  readonly #fallback = new MemoryKeyValueStore();

  async get(key: string): Promise<string | null> {
    try {
      return window.localStorage.getItem(key) ?? (await this.#fallback.get(key));
    } catch {
      return this.#fallback.get(key);
    }
  }

  async set(key: string, value: string): Promise<void> {
    try {
      window.localStorage.setItem(key, value);
      await this.#fallback.remove(key);
    } catch {
      await this.#fallback.set(key, value);
    }
  }

  async remove(key: string): Promise<void> {
    await this.#fallback.remove(key);
    try {
      window.localStorage.removeItem(key);
    } catch {
      // Nothing stored there to remove.
    }
  }
}

/** This browser's anti-rollback memory of its accounts (the client core's DeviceMemory). */
export const deviceMemory = new DeviceMemory(new LocalStorageStore());
