import { parseVaultState, VAULT_STATE_HEADER, type FolderWire } from '@lockit/contract';
import {
  ApiError,
  checkVaultState,
  entryElementsOf,
  folderElementsOf,
  openEntries,
  openFolderName,
  RevisionMemory,
  type DeviceMemory,
  type EntryElement,
  type LiveMember,
  type OpenEntry,
  type OpenVault,
  type VaultSnapshot,
} from '@lockit/client-core';
import type { ApiClient } from '@lockit/client-core';
import { AgentError } from './agent-error';

/** The vault as the agent holds it while unlocked: decrypted overviews and folder names, in memory only. */
export interface LoadedVault {
  entries: OpenEntry[];
  /** Folder names by folder id. */
  folders: Map<string, string>;
  loadedAt: number;
  /** Entries served that did not open (tampered, moved, rolled back): counted, never shown. */
  damaged: number;
  /**
   * The same fetch as the integrity queue reads it (every member's element, names for the
   * manifest): a write checks it first, so it costs no second fetch.
   */
  snapshot: VaultSnapshot;
}

/** What the agent last loaded, with the list answer's ETag (null when the server sent none). */
export interface ListedVault {
  loaded: LoadedVault;
  etag: string | null;
}

/**
 * Fetches the entries and folders and checks them as the web app does before anything is shown:
 * the whole-vault state (decisions 0053, 0061) must verify under this vault's integrity key, hold
 * every member served and no other, and its counter must be no lower than this device remembers
 * (the device memory file); a served vault that fails is refused whole (AgentError 'integrity').
 * Entries that do not decrypt, or come at a lower revision than this agent saw, are left out and
 * counted; nothing of them is shown.
 *
 * With `previous`, the list is asked for with its ETag: a 304 (the server's list is byte for byte
 * the one this agent checked) reuses what was opened then, so a command on a large vault costs
 * one small request instead of reading and checking the whole vault again. Security invariant:
 * a 304 is taken only while the state it stands for is no older than this device remembers (the
 * agent's own write since then moved the counter on); otherwise the list is read and checked
 * whole. A server answering 304 falsely hides at most what serving the old list whole would.
 */
export async function loadVault(
  api: ApiClient,
  vault: OpenVault,
  memory: DeviceMemory,
  revisions: RevisionMemory,
  previous: ListedVault | null = null,
): Promise<ListedVault> {
  if (previous?.etag && (await stillCurrent(previous.loaded, vault, memory))) {
    try {
      const [list, folderAnswer] = await Promise.all([
        api.exchange('list-entries', { headers: { 'if-none-match': previous.etag } }),
        api.call('list-folders', {}),
      ]);
      return opened(vault, memory, revisions, list, folderAnswer.data);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 304)) throw error;
      return previous;
    }
  }
  const [list, folderAnswer] = await Promise.all([api.exchange('list-entries', {}), api.call('list-folders', {})]);
  return opened(vault, memory, revisions, list, folderAnswer.data);
}

async function stillCurrent(loaded: LoadedVault, vault: OpenVault, memory: DeviceMemory): Promise<boolean> {
  // A vault served without a state counts as 0, as the whole check takes it from a device that saw none.
  const counter = loaded.snapshot.state === null ? 0 : parseVaultState(loaded.snapshot.state)?.counter;
  return counter !== undefined && counter >= (await memory.vaultCounter(vault.account));
}

async function opened(
  vault: OpenVault,
  memory: DeviceMemory,
  revisions: RevisionMemory,
  list: { body: { data: unknown }; headers: { get(name: string): string | null } },
  folders: FolderWire[],
): Promise<ListedVault> {
  const raw = list.body.data as unknown[];
  const state = list.headers.get(VAULT_STATE_HEADER);
  const elements = await checkWholeVault(vault, memory, raw, folders, state);
  const folderNames = new Map<string, string>();
  for (const folder of folders) {
    try {
      folderNames.set(folder.id, await openFolderName(vault.vaultKey, folder.id, folder.name));
    } catch {
      // A name that does not open is not shown; its entries still are, in no folder.
    }
  }
  const opened = await openEntries(vault.vaultKey, raw, { revisions, folderNames });
  const entries = opened.filter((entry): entry is OpenEntry => entry.status === 'open');
  const names = new Map<string, string>(folderNames);
  for (const entry of entries) names.set(entry.id, entry.serviceName);
  const loaded = {
    entries,
    folders: folderNames,
    loadedAt: Date.now(),
    damaged: opened.length - entries.length,
    snapshot: { state, entries: elements.entries, folders: elements.folders, names },
  };
  return { loaded, etag: list.headers.get('etag') };
}

async function checkWholeVault(
  vault: OpenVault,
  memory: DeviceMemory,
  raw: readonly unknown[],
  folders: FolderWire[],
  served: string | null,
): Promise<{ entries: EntryElement[]; folders: EntryElement[] }> {
  const [elements, folderElements] = await Promise.all([
    entryElementsOf(vault.integrityKey, raw),
    folderElementsOf(vault.integrityKey, folders),
  ]);
  const entries = new Map<string, LiveMember>();
  const trashed = new Map<string, LiveMember>();
  for (const element of elements) {
    if (element === null) continue;
    if (element.live) entries.set(element.id, { revision: element.revision, element: element.element });
    else if (element.trashed) trashed.set(element.id, { revision: element.revision, element: element.trashed.element });
  }
  const folderMembers = new Map(
    folderElements.map((element) => [element.id, { revision: element.revision, element: element.element }]),
  );
  const remembered = await memory.vaultCounter(vault.account);
  const check = await checkVaultState(vault.integrityKey, served, { entries, folders: folderMembers, trashed }, remembered, null);
  if (!check.ok) {
    const { kind, counters } = check.report;
    throw new AgentError(
      'integrity',
      `The server's copy of your vault failed its integrity check (${kind}; counter ${counters.served ?? 'none'}, this device saw ${counters.remembered}). Nothing was shown. Open the web app to review it.`,
    );
  }
  if (check.state) await memory.rememberVaultCounter(vault.account, check.state.counter);
  return { entries: elements.filter((element): element is EntryElement => element !== null), folders: folderElements };
}
