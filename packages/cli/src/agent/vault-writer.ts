import {
  EntryDraftError,
  EntryWrites,
  FolderWrites,
  foldForMatching,
  loadVaultSnapshot,
  openEntry,
  VaultIntegrity,
  VaultIntegrityRefusedError,
  type OpenVault,
  type RevisionMemory,
} from '@lockit/client-core';
import type { EntryWire } from '@lockit/contract';
import { AgentError } from './agent-error';
import type { AgentSession } from './agent-session';
import type { LoadedVault } from './load-vault';

/** What a write answers: the item as the server now holds it (nothing secret). */
export interface Written {
  id: string;
  name: string;
  revision: number;
  inTrash: boolean;
}

/**
 * The client core's writes for the agent's open vault: one VaultIntegrity (so every write of
 * this agent goes through one queue and carries the next whole-vault state), EntryWrites and
 * FolderWrites over it. Nothing here seals, counts or retries on its own: that is the core's, as
 * in the web app.
 *
 * Security invariants:
 * - Before each write the vault just fetched is checked by the queue; a vault that fails is
 *   refused whole and nothing is sent (VaultIntegrityRefusedError, exit 8).
 * - A 409 (another device wrote the item since it was read) writes nothing more: the command
 *   says so and exits 10; both versions stay on the server, the other one current.
 * - The server's answer is opened like any served entry (and its revision noted) before the
 *   command reports success; an answer that does not open is an integrity failure.
 */
export class VaultWriter {
  readonly #integrity: VaultIntegrity;
  readonly entries: EntryWrites;
  readonly folders: FolderWrites;

  constructor(
    readonly vault: OpenVault,
    private readonly session: AgentSession,
    private readonly revisions: RevisionMemory,
  ) {
    const api = session.api();
    const { integrityKey, vaultKey, account } = vault;
    this.#integrity = new VaultIntegrity(integrityKey, vaultKey, account, {
      api,
      memory: session.memory,
      load: (names) => loadVaultSnapshot(api, integrityKey, vaultKey, names),
    });
    const platform = { api, vaultKey, integrity: this.#integrity };
    this.entries = new EntryWrites(platform);
    this.folders = new FolderWrites(platform);
  }

  /**
   * Runs `work` after the queue checked the vault `loaded` was fetched as (a vault with no state
   * yet gets its first one here, as the web app's first open does). Translates the core's
   * refusals into the agent's.
   */
  async write<T>(loaded: LoadedVault, work: () => Promise<T>): Promise<T> {
    return this.session.call(async () => {
      await this.#integrity.check(loaded.snapshot);
      if (this.#integrity.report) {
        throw new AgentError('integrity', "The server's copy of your vault failed its integrity check. Nothing was written.");
      }
      try {
        return await work();
      } catch (error) {
        if (error instanceof EntryDraftError) throw new AgentError('usage', error.message);
        if (error instanceof VaultIntegrityRefusedError) throw new AgentError('integrity', error.message);
        throw error;
      }
    });
  }

  /** The folder named `name` (case and accents aside), made when there is none. */
  async folderId(loaded: LoadedVault, name: string): Promise<string> {
    const wanted = foldForMatching(name.trim());
    for (const [id, folderName] of loaded.folders) if (foldForMatching(folderName) === wanted) return id;
    const made = await this.folders.add(name);
    if (made.kind === 'invalid') throw new AgentError('usage', made.message);
    loaded.folders.set(made.folder.id, made.folder.name);
    return made.folder.id;
  }

  /** Opens the server's answer to a write (it must open under this vault's key) and notes it. */
  async settle(wire: EntryWire): Promise<Written> {
    const opened = await openEntry(this.vault.vaultKey, wire, { revisions: this.revisions });
    if (opened?.status !== 'open') {
      throw new AgentError('integrity', 'The server answered the write with an item that does not open under your key.');
    }
    await this.#integrity.noteEntry(wire, opened.serviceName);
    return { id: opened.id, name: opened.serviceName, revision: opened.revision, inTrash: opened.deletedAt !== null };
  }
}

/** The refusal for a write based on a revision another device replaced: nothing was written. */
export function conflictError(what: string, name: string, current: EntryWire, tried: number): AgentError {
  return new AgentError(
    'conflict',
    `Not ${what}: "${name}" was changed on another device (it is at revision ${current.revision}; this command was based on ${tried}). Nothing was written and nothing was lost: look at it with "lockit get ${current.id}" and run the command again.`,
    { id: current.id, revision: current.revision, basedOn: tried },
  );
}
