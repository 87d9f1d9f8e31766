/**
 * Durable storage a platform gives the client core: localStorage in the web app,
 * `chrome.storage.local` in the extension, a file in the command line's agent.
 *
 * Security invariants: the core writes here only what the server may know too (numbers, digests,
 * ciphertexts); never a key, a password or a decrypted name. A store that cannot write (storage
 * full or switched off) keeps what it can and never throws: the core then remembers less and
 * refuses nothing it would not refuse on a new device.
 */
export interface KeyValueStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
  remove(key: string): Promise<void>;
}

/**
 * A store that lives as long as its object: the stand-in where a platform has no durable
 * storage, and the core's tests' store.
 */
export class MemoryKeyValueStore implements KeyValueStore {
  readonly #values = new Map<string, string>();

  async get(key: string): Promise<string | null> {
    return this.#values.get(key) ?? null;
  }

  async set(key: string, value: string): Promise<void> {
    this.#values.set(key, value);
  }

  async remove(key: string): Promise<void> {
    this.#values.delete(key);
  }

  /** The keys held, for tests that prove what was (not) written. */
  keys(): string[] {
    return [...this.#values.keys()];
  }
}
