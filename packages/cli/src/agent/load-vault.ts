import { VAULT_STATE_HEADER, type FolderWire } from '@lockit/contract';
import {
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

/**
 * Fetches the entries and folders and checks them as the web app does before anything is shown:
 * the whole-vault state (decisions 0053, 0061) must verify under this vault's integrity key, hold
 * every member served and no other, and its counter must be no lower than this device remembers
 * (the device memory file); a served vault that fails is refused whole (AgentError 'integrity').
 * Entries that do not decrypt, or come at a lower revision than this agent saw, are left out and
 * counted; nothing of them is shown.
 */
export async function loadVault(
  api: ApiClient,
  vault: OpenVault,
  memory: DeviceMemory,
  revisions: RevisionMemory,
): Promise<LoadedVault> {
  const [list, folderAnswer] = await Promise.all([api.exchange('list-entries', {}), api.call('list-folders', {})]);
  const raw = list.body.data as unknown[];
  const folders: FolderWire[] = folderAnswer.data;
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
  return {
    entries,
    folders: folderNames,
    loadedAt: Date.now(),
    damaged: opened.length - entries.length,
    snapshot: { state, entries: elements.entries, folders: elements.folders, names },
  };
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
