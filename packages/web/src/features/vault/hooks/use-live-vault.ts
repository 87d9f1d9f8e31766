import {
  VaultMirror,
  type MirrorSeed,
  liveChanges,
  openFolders,
  VaultSync,
  type CaughtUp,
  type EventSourceLike,
  type IntegrityReport,
  type VaultEntry,
} from '@lockit/client-core';
import { apiPaths } from '@lockit/contract';
import { useEffect, useState } from 'react';
import { apiBaseUrl } from '@/config/env';
import { deviceMemory } from '@/lib/device-memory';
import { useKeyring } from '@/lib/keyring-context';
import { api } from '@/lib/http';
import type { UnlockedVault } from '@/lib/keyring';
import { logFailure } from '@/lib/log';
import { saveOfflineCopy } from '@/lib/offline/offline-copies';
import { vaultIntegrityOf } from '@/lib/vault-integrity-of';
import { openEntriesWithElements } from '../lib/open-entries-in-workers';
import type { RevisionMemory } from '@lockit/client-core';
import type { VaultEntriesAction, VaultEntriesState } from './use-vault-entries';

/** The browser's EventSource, with the session cookies even when the API is on another origin. */
const openEventSource = (url: string): EventSourceLike => new EventSource(url, { withCredentials: true });

const revisionOf = (entry: VaultEntry) => (entry.status === 'open' ? entry.revision : (entry.revision ?? -1));

/**
 * Keeps the open vault current (decision 0066): follows GET /api/vault/events and, at each
 * notice and each (re)connection, catches up through the change cursor with the client core's
 * VaultSync, then opens only the entries and folders that changed. The stream is reopened with a
 * growing wait when the server ends or refuses it (liveChanges).
 *
 * Security invariants: what reaches the screen is only what passed the whole-vault check over the
 * whole mirror (VaultSync); a refused catch-up is returned as a report for the screen to say, and
 * nothing of it is shown. A passing catch-up replaces this device's offline copy with the
 * mirror (ciphertexts and the state it was checked against), so the copy follows this tab's own
 * writes too.
 */
export function useLiveVault(
  vault: UnlockedVault | null,
  enabled: boolean,
  /** The loaded list it passed its check with, at its change cursor: the first catch-up reads only what came after. */
  seed: MirrorSeed | null,
  /** What the screen holds now. */
  current: () => VaultEntriesState,
  dispatch: (action: VaultEntriesAction) => void,
  revisions: RevisionMemory | undefined,
): IntegrityReport | null {
  const [refused, setRefused] = useState<IntegrityReport | null>(null);
  const integrity = vaultIntegrityOf(useKeyring());
  useEffect(() => {
    if (!enabled || !vault || typeof EventSource === 'undefined') return;
    const { vaultKey, integrityKey, account, username } = vault;
    const sync = new VaultSync({ api, vaultKey, integrityKey, memory: deviceMemory, account });
    if (seed) sync.seed(VaultMirror.seeded(seed));
    let stopped = false;
    let first = true;

    const show = async (caught: CaughtUp) => {
      const held = new Map<string, VaultEntry>();
      const state = current();
      if (state.status === 'ready') for (const entry of state.entries) held.set(entry.id, entry);
      // Only what differs from what the screen holds is opened: without a seed the first catch-up
      // reads the whole vault (cursor 0), which the screen already opened from its load.
      const wires = caught.changed.entries
        .map((id) => caught.mirror.entries.get(id))
        .filter((wire) => wire !== undefined)
        .filter((wire) => {
          const entry = held.get(wire.id);
          return entry === undefined || revisionOf(entry) !== wire.revision || entry.status !== 'open';
        });
      const { entries } = await openEntriesWithElements(vaultKey, undefined, wires, { revisions });
      const folders = caught.changed.folders.map((id) => caught.mirror.folders.get(id)).filter((wire) => wire !== undefined);
      const opened = await openFolders(vaultKey, folders, () => undefined);
      if (stopped) return;
      for (const folder of opened) dispatch({ type: 'folder-saved', folder });
      for (const entry of entries) dispatch({ type: 'saved', entry });
      for (const id of caught.changed.purgedEntries) dispatch({ type: 'removed', id });
      for (const id of caught.changed.purgedFolders) dispatch({ type: 'folder-removed', id });
      if (first || caught.reloaded) {
        // A whole read: whatever the screen holds that the vault no longer has is gone.
        for (const id of held.keys()) if (!caught.mirror.entries.has(id)) dispatch({ type: 'removed', id });
      }
      first = false;
    };

    const catchUp = async () => {
      const servedAt = Date.now();
      const result = await sync.catchUp();
      if (stopped) return;
      if (!result.ok) {
        setRefused(result.report);
        return;
      }
      setRefused(null);
      if (result.mirror.state !== null) integrity?.noteCaughtUp(result.mirror.state);
      await show(result);
      if (result.mirror.state !== null)
        void saveOfflineCopy({
          account,
          username,
          servedAt,
          entries: [...result.mirror.entries.values()],
          vaultState: result.mirror.state,
          folders: [...result.mirror.folders.values()],
        });
    };

    const live = liveChanges({
      open: openEventSource,
      url: `${apiBaseUrl}${apiPaths.vaultEvents}`,
      catchUp,
      onError: (error) => logFailure('Catching up with changes from your other devices', error),
    });
    return () => {
      stopped = true;
      live.close();
    };
  }, [enabled, vault, seed, current, dispatch, revisions, integrity]);
  return enabled ? refused : null;
}
