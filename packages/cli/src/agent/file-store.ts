import { readFile, rename, writeFile } from 'node:fs/promises';
import type { KeyValueStore } from '@lockit/client-core';

/**
 * The client core's durable store as one JSON file (0600), for the device memory: the highest
 * key generation, key epoch, KDF params and vault counter seen per account (decision 0056).
 * Nothing secret goes here (the core's KeyValueStore invariant). Writes go to a temporary file
 * renamed over the old one, so a crash leaves the old memory or the new, never half of one; a
 * write that fails is dropped (the core then remembers less and refuses nothing it would not
 * refuse on a new device).
 */
export class FileKeyValueStore implements KeyValueStore {
  #values: Map<string, string> | null = null;
  #writing: Promise<void> = Promise.resolve();

  constructor(private readonly path: string) {}

  async get(key: string): Promise<string | null> {
    return (await this.#load()).get(key) ?? null;
  }

  async set(key: string, value: string): Promise<void> {
    (await this.#load()).set(key, value);
    await this.#save();
  }

  async remove(key: string): Promise<void> {
    (await this.#load()).delete(key);
    await this.#save();
  }

  async #load(): Promise<Map<string, string>> {
    if (this.#values) return this.#values;
    let parsed: unknown = {};
    try {
      parsed = JSON.parse(await readFile(this.path, 'utf8'));
    } catch {
      parsed = {};
    }
    const values = new Map<string, string>();
    if (typeof parsed === 'object' && parsed !== null) {
      for (const [key, value] of Object.entries(parsed)) if (typeof value === 'string') values.set(key, value);
    }
    this.#values ??= values;
    return this.#values;
  }

  #save(): Promise<void> {
    const text = JSON.stringify(Object.fromEntries(this.#values ?? []), null, 1);
    this.#writing = this.#writing.then(async () => {
      const temporary = `${this.path}.${process.pid}.tmp`;
      try {
        await writeFile(temporary, text, { mode: 0o600 });
        await rename(temporary, this.path);
      } catch {
        // Kept in memory; see the class comment.
      }
    });
    return this.#writing;
  }
}
