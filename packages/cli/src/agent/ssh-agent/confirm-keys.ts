import { readFile, rename, writeFile } from 'node:fs/promises';

/** Which of the vault's SSH keys ask before each use: every key, or those listed by fingerprint. */
export interface ConfirmChoices {
  all: boolean;
  fingerprints: string[];
}

const FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}$/;

/**
 * The person's choice of keys that ask before each use, kept in the state folder
 * (`ssh-confirm.json`, 0600) by fingerprint: a key asks wherever it sits in the vault and
 * whatever its item is called, and the file holds nothing of the vault but public fingerprints.
 * A choice is local to this device, as `ssh-add -c` is to one ssh-agent.
 *
 * Read again before every signature, so a change applies at once. A file that cannot be read
 * or does not parse counts as "every key asks": a damaged choice fails closed.
 */
export class ConfirmKeys {
  constructor(private readonly file: string) {}

  async read(): Promise<ConfirmChoices> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { all: false, fingerprints: [] };
      return { all: true, fingerprints: [] };
    }
    try {
      const saved = JSON.parse(text) as Partial<ConfirmChoices>;
      const fingerprints = Array.isArray(saved.fingerprints) ? saved.fingerprints : null;
      if (typeof saved.all !== 'boolean' || !fingerprints?.every((one) => typeof one === 'string' && FINGERPRINT.test(one)))
        return { all: true, fingerprints: [] };
      return { all: saved.all, fingerprints };
    } catch {
      return { all: true, fingerprints: [] };
    }
  }

  async asks(fingerprint: string): Promise<boolean> {
    const choices = await this.read();
    return choices.all || choices.fingerprints.includes(fingerprint);
  }

  /** Sets whether every key asks, or whether one key (by fingerprint) does; written whole, then renamed. */
  async set(change: { all: boolean } | { fingerprint: string; asks: boolean }): Promise<ConfirmChoices> {
    const current = await this.read();
    let next: ConfirmChoices;
    if ('all' in change) next = { ...current, all: change.all };
    else {
      const others = current.fingerprints.filter((one) => one !== change.fingerprint);
      next = { ...current, fingerprints: change.asks ? [...others, change.fingerprint] : others };
    }
    const temporary = `${this.file}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, this.file);
    return next;
  }
}
