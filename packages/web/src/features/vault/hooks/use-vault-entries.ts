import { startTransition, useCallback, useEffect, useLayoutEffect, useReducer, useRef, useState } from 'react';
import { apiPaths, listFoldersResponseSchema, type EntryWire, type FolderWire } from '@lockit/contract';
import type { MirrorSeed } from '@lockit/client-core';
import { listEntries, servedChangeCursorOf, servedVaultStateOf } from '@/api/list-entries';
import { useKeyring } from '@/lib/keyring-context';
import { logFailure, logInfo } from '@/lib/log';
import { apiRequest } from '@/lib/api-client';
import { withFolderName, withPendingWrites } from '@lockit/client-core';
import { refreshPending } from '@/lib/offline/pending-state';
import { openEntriesWithElements } from '../lib/open-entries-in-workers';
import { purgeExpiredTrash } from '../integrity/purge-expired-trash';
import { vaultIntegrityOf } from '@/lib/vault-integrity-of';
import type { VaultIntegrity } from '@lockit/client-core';
import { folderElementsOf, type EntryElement } from '@lockit/client-core';
import { mark, VAULT_CHECKED_MARK, VAULT_DECRYPTED_MARK, VAULT_LOAD_START_MARK } from '../lib/perf-marks';
import { revisionMemoryOf } from '../lib/revision-memory';
import { saveOfflineCopy } from '@/lib/offline/offline-copies';
import { useLiveVault } from './use-live-vault';
import { foldForSearch } from '@lockit/client-core';
import { openFolders } from '@lockit/client-core';
import { upgradeLegacyEntries, LEGACY_UPGRADE_DELAY_MS } from '../lib/upgrade-legacy';
import type { OfflineCopy, OpenFolder, VaultEntry } from '@lockit/client-core';
import { offlineList } from '@/lib/offline/opened-offline';
import { offlineCopyOf } from '@/lib/offline/opened-offline-registry';

export type VaultEntriesState =
  /** `added`: entries saved before the list arrived, kept until it does. */
  | { status: 'loading'; added: VaultEntry[] }
  /** The fetch failed: only logged (spec); the list stays empty. */
  | { status: 'failed'; entries: VaultEntry[] }
  /** Live AND trashed entries (`deletedAt`): the screen splits them into the list and Trash. */
  | { status: 'ready'; entries: VaultEntry[] };

export type VaultEntriesAction =
  | { type: 'loaded'; entries: VaultEntry[]; folders?: OpenFolder[] }
  | { type: 'failed' }
  /**
   * Add, save, trash, restore, a conflict's current version, a damaged entry: appended, or
   * replacing the entry with the same id, unless this state already holds it at a higher
   * revision (an answer that arrives late never undoes a newer one).
   */
  | { type: 'saved'; entry: VaultEntry }
  /** Purged, or gone from the server. */
  | { type: 'removed'; id: string }
  | { type: 'folder-saved'; folder: OpenFolder }
  | { type: 'folder-removed'; id: string };

interface VaultState {
  entries: VaultEntriesState;
  folders: OpenFolder[];
}

const revisionOf = (entry: VaultEntry) => (entry.status === 'open' ? entry.revision : (entry.revision ?? 0));

/** The entry with its folder's current name in its search text. */
function withFolder(entry: VaultEntry, folders: readonly OpenFolder[]): VaultEntry {
  if (entry.status !== 'open' || entry.folderId === null) return entry;
  return withFolderName(entry, folders.find((folder) => folder.id === entry.folderId)?.name);
}

/** Entries of `folderId` get their search text again (after a folder was renamed or deleted). */
function refolder(entries: VaultEntriesState, folderId: string, folders: readonly OpenFolder[]): VaultEntriesState {
  const inFolder = (entry: VaultEntry) => entry.status === 'open' && entry.folderId === folderId;
  if (entries.status === 'loading')
    return { ...entries, added: entries.added.map((entry) => (inFolder(entry) ? withFolder(entry, folders) : entry)) };
  if (!entries.entries.some(inFolder)) return entries;
  return { ...entries, entries: entries.entries.map((entry) => (inFolder(entry) ? withFolder(entry, folders) : entry)) };
}

/** Every change touches one entry or folder by id; nothing is decrypted again. */
function reducer(state: VaultState, action: VaultEntriesAction): VaultState {
  const { entries, folders } = state;
  switch (action.type) {
    case 'loaded': {
      const loadedFolders = action.folders ?? folders;
      if (entries.status !== 'loading' || entries.added.length === 0) {
        return { folders: loadedFolders, entries: { status: 'ready', entries: action.entries } };
      }
      const listed = new Set(action.entries.map((entry) => entry.id));
      const added = entries.added.filter((entry) => !listed.has(entry.id)).map((entry) => withFolder(entry, loadedFolders));
      return { folders: loadedFolders, entries: { status: 'ready', entries: [...action.entries, ...added] } };
    }
    case 'failed':
      return { ...state, entries: { status: 'failed', entries: [] } };
    case 'saved': {
      const entry = withFolder(action.entry, folders);
      if (entries.status === 'loading') {
        return { ...state, entries: { ...entries, added: [...entries.added.filter((added) => added.id !== entry.id), entry] } };
      }
      const index = entries.entries.findIndex((held) => held.id === entry.id);
      if (index === -1) return { ...state, entries: { ...entries, entries: [...entries.entries, entry] } };
      const held = entries.entries[index]!;
      // A damaged entry always replaces (it must be seen); an older answer never does.
      if (entry.status === 'open' && revisionOf(held) > entry.revision) return state;
      return { ...state, entries: { ...entries, entries: entries.entries.with(index, entry) } };
    }
    case 'removed':
      if (entries.status === 'loading')
        return { ...state, entries: { ...entries, added: entries.added.filter((entry) => entry.id !== action.id) } };
      return { ...state, entries: { ...entries, entries: entries.entries.filter((entry) => entry.id !== action.id) } };
    case 'folder-saved': {
      const index = folders.findIndex((folder) => folder.id === action.folder.id);
      if (index !== -1 && folders[index]!.revision > action.folder.revision) return state;
      const next = index === -1 ? [...folders, action.folder] : folders.with(index, action.folder);
      return { folders: next, entries: refolder(entries, action.folder.id, next) };
    }
    case 'folder-removed': {
      const next = folders.filter((folder) => folder.id !== action.id);
      return { folders: next, entries: refolder(entries, action.id, next) };
    }
  }
}

/**
 * Entries in a folder get its name in their search text. The entries were just opened (no
 * folder name in their search text yet, and not in any state): the folded name is appended
 * in place, as searchTextOf (open-entries.ts) puts it last, instead of folding every field of
 * three entries in four again.
 */
function withFolderNames(entries: VaultEntry[], folders: readonly OpenFolder[]): VaultEntry[] {
  if (folders.length === 0) return entries;
  const folded = new Map(folders.map((folder) => [folder.id, `\n${foldForSearch(folder.name)}`]));
  for (const entry of entries) {
    if (entry.status !== 'open' || entry.folderId === null) continue;
    const name = folded.get(entry.folderId);
    if (name !== undefined) entry.searchText += name;
  }
  return entries;
}

const INITIAL: VaultState = { entries: { status: 'loading', added: [] }, folders: [] };

/**
 * Folders load beside the list; without them (an older server, a failure) the vault still
 * opens (`raw` null: the whole-vault check then counts no folders, so it passes only for a
 * vault whose state holds none, and a server cannot skip the check by failing this call).
 */
async function loadFolders(
  vaultKey: CryptoKey,
  offline: OfflineCopy | undefined,
): Promise<{ opened: OpenFolder[]; raw: FolderWire[] | null }> {
  try {
    // By path with its schema, as the list itself: the list's first paint waits for no route table.
    // Offline, the copy's folders are checked against the same schema.
    const raw = offline
      ? listFoldersResponseSchema.parse({ message: 'offline copy', data: offline.folders }).data
      : (await apiRequest(apiPaths.folders, { method: 'GET', schema: listFoldersResponseSchema, protectedCall: true })).data;
    const opened = await openFolders(vaultKey, raw, (count) =>
      logInfo('Vault', `${count} folder(s) could not be decrypted and are not shown.`),
    );
    return { opened, raw };
  } catch (error) {
    logFailure('Loading the folders', error);
    return { opened: [], raw: null };
  }
}

/**
 * The whole-vault check (decision 0053) of what the screen just opened, after it is painted's
 * turn: the elements are already computed (in the workers, beside the decryption), so this is
 * one pass of additions. A failure shows above the list (IntegrityAlert) and stops every write.
 */
async function checkLoaded(
  integrity: VaultIntegrity,
  raw: readonly unknown[],
  entries: readonly VaultEntry[],
  elements: readonly EntryElement[],
  folders: { opened: OpenFolder[]; raw: FolderWire[] | null },
): Promise<void> {
  const names = new Map<string, string>();
  for (const entry of entries) if (entry.status === 'open') names.set(entry.id, entry.serviceName);
  for (const folder of folders.opened) names.set(folder.id, folder.name);
  await integrity.check({
    state: servedVaultStateOf(raw) ?? null,
    entries: elements,
    folders: await folderElementsOf(integrity.integrityKey, folders.raw ?? []),
    foldersUnknown: folders.raw === null,
    names,
  });
  mark(VAULT_CHECKED_MARK);
}

/**
 * The decrypted vault: entries (live and trashed) and folders, fetched (or taken from the
 * fetch an unlock or the sign-in started) and decrypted once per vault key (in slices), then
 * changed one by one. The decrypted data lives in this component state only, so it is
 * dropped as soon as the vault locks and the screen unmounts.
 *
 * Once the list is painted, entries still in the format before items are saved again in the
 * item format, a few at a time off the critical path (upgrade-legacy.ts).
 */
export function useVaultEntries(vaultKey: CryptoKey, prefetchedEntries?: Promise<unknown[]>) {
  const [state, dispatch] = useReducer(reducer, INITIAL);
  const keyring = useKeyring();
  const revisions = revisionMemoryOf(keyring);
  const integrity = vaultIntegrityOf(keyring);
  const latest = useRef(state);
  useLayoutEffect(() => {
    latest.current = state;
  }, [state]);
  /** How many times the vault was fetched again on request; a fetch made before the first load serves only that one. */
  const [reloads, setReloads] = useState(0);
  const reload = useCallback(() => setReloads((count) => count + 1), []);

  /**
   * What live sync starts from, for the load of this key and reload count: the loaded list once it
   * passed its check (undefined until the check ends; null: start from an empty mirror, reading
   * the vault whole).
   */
  const [seeded, setSeeded] = useState<{ vaultKey: CryptoKey; reloads: number; seed: MirrorSeed | null }>();
  const liveSeed = seeded?.vaultKey === vaultKey && seeded.reloads === reloads ? seeded.seed : undefined;

  useEffect(() => {
    const controller = new AbortController();
    const setLiveSeed = (seed: MirrorSeed | null) => setSeeded({ vaultKey, reloads, seed });
    const load = async () => {
      mark(VAULT_LOAD_START_MARK);
      const startedAt = Date.now();
      // A vault unlocked from this device's offline copy reads the copy, never the server.
      const offline = offlineCopyOf(vaultKey);
      // Beside the list, never in its way: the list may already be here (fetched during the
      // key derivation), and its decryption does not wait for the folders.
      const folders = loadFolders(vaultKey, offline);
      try {
        const prefetched = reloads === 0 ? (prefetchedEntries ?? keyring.takePrefetchedList(vaultKey)) : undefined;
        const raw = await (prefetched ?? (offline ? offlineList(offline) : listEntries()));
        const [loadedFolders, { entries, elements }] = await Promise.all([
          folders,
          openEntriesWithElements(vaultKey, integrity?.integrityKey, raw, { signal: controller.signal, revisions }),
        ]);
        mark(VAULT_DECRYPTED_MARK);
        const { opened } = loadedFolders;
        // Writes still queued from a time without the server are shown over what was served.
        const account = keyring.vault?.vaultKey === vaultKey ? keyring.vault.account : null;
        const pending = account === null ? [] : await refreshPending(account);
        const loaded = withFolderNames(await withPendingWrites(vaultKey, entries, pending), opened);
        // As a transition, the first render of 10,000 entries (sorting, counts, the list) runs
        // in slices with the main thread free between them, instead of one task of 50 ms or more.
        startTransition(() => dispatch({ type: 'loaded', entries: loaded, folders: opened }));
        const vault = keyring.vault;
        if (!integrity || !vault || controller.signal.aborted) {
          setLiveSeed(null);
          return;
        }
        void checkLoaded(integrity, raw, entries, elements, loadedFolders).then(
          async () => {
            // Only a vault that passed its check, with the state it was checked against, replaces
            // this device's offline copy (a list served before the vault had a state waits for
            // the next load or catch-up), and seeds live sync at the list's cursor.
            const vaultState = servedVaultStateOf(raw) ?? null;
            const cursor = servedChangeCursorOf(raw) ?? null;
            const passed = integrity.checked && vaultState !== null && loadedFolders.raw !== null;
            if (offline || controller.signal.aborted) return;
            // Every entry passed the check, so each is a well-formed wire.
            setLiveSeed(
              passed && cursor !== null
                ? { cursor, state: vaultState, entries: raw as EntryWire[], folders: loadedFolders.raw ?? [] }
                : null,
            );
            if (passed && loadedFolders.raw !== null)
              void saveOfflineCopy({
                account: vault.account,
                username: vault.username,
                servedAt: startedAt,
                entries: raw,
                vaultState,
                folders: loadedFolders.raw,
              });
            await purgeExpiredTrash(integrity, (id) => dispatch({ type: 'removed', id }));
          },
          (error: unknown) => {
            // Live sync still starts, reading the vault whole and checking it.
            logFailure('Checking the vault', error);
            if (!controller.signal.aborted) setLiveSeed(null);
          },
        );
      } catch (error) {
        if (controller.signal.aborted) return;
        logFailure('Loading the vault', error);
        dispatch({ type: 'failed' });
      }
    };
    void load();
    return () => controller.abort();
  }, [vaultKey, prefetchedEntries, keyring, revisions, integrity, reloads]);

  // Nothing is upgraded or followed live while the vault is the offline copy (its own changes are queued).
  const ready = state.entries.status === 'ready' && offlineCopyOf(vaultKey) === undefined;
  useEffect(() => {
    if (!ready) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      void upgradeLegacyEntries(vaultKey, {
        current: () => (latest.current.entries.status === 'ready' ? latest.current.entries.entries : []),
        dispatch,
        revisions,
        integrity,
        signal: controller.signal,
      });
    }, LEGACY_UPGRADE_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [ready, vaultKey, revisions, integrity]);

  // Live: changes made on other devices (and this tab's own) arrive through the change cursor.
  const currentEntries = useCallback(() => latest.current.entries, []);
  const syncRefused = useLiveVault(
    keyring.vault,
    ready && liveSeed !== undefined,
    liveSeed ?? null,
    currentEntries,
    dispatch,
    revisions,
  );

  return { state: state.entries, folders: state.folders, dispatch, reload, syncRefused };
}
