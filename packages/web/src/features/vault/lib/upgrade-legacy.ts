import { logFailure, logInfo } from '@/lib/log';
import { api } from '@/lib/http';
import { entryConflictOf, vaultStateHeaders, writeThrough, type VaultIntegrity } from '@lockit/client-core';
import { writtenEntryMember } from '@lockit/client-core';
import { openEntry } from '@lockit/client-core';
import type { RevisionMemory } from '@lockit/client-core';
import { openDraft, sealEntry, toUpdateRequest } from '@lockit/client-core';
import type { OpenEntry, VaultEntry } from '@lockit/client-core';
import { yieldToMain } from '@lockit/client-core';

/** After the list is ready: its first paint comes first. */
export const LEGACY_UPGRADE_DELAY_MS = 1_000;
/** Entries saved at once; a yield to the event loop between slices keeps input responsive. */
export const LEGACY_UPGRADE_SLICE = 8;

interface UpgradeContext {
  /** The entries as the screen holds them now (they change while the upgrade runs). */
  current: () => readonly VaultEntry[];
  dispatch: (action: { type: 'saved'; entry: VaultEntry }) => void;
  revisions?: RevisionMemory;
  /** The tab's integrity queue: each save carries the vault state after it (decision 0053). */
  integrity?: VaultIntegrity | null;
  signal?: AbortSignal;
}

const isLegacy = (entry: VaultEntry): entry is OpenEntry =>
  entry.status === 'open' && entry.format === 'legacy' && entry.deletedAt === null;

/**
 * Saves every live entry of the format before items (v1 associated data, no overview) again
 * in the item format, so existing vaults migrate with no step of their own: a normal update
 * based on the revision the screen holds, the same content, sealed with the field set. A
 * conflict (changed elsewhere meanwhile) or any failure leaves the entry as it was, in the old
 * format, for the next unlock; it is logged, never shown as an error. Entries changed on this
 * screen while the upgrade runs are looked up again before each save, so a person's own save
 * is never overwritten (and the server's revision check stops any race that remains).
 * Returns how many entries were upgraded.
 */
export async function upgradeLegacyEntries(
  vaultKey: CryptoKey,
  { current, dispatch, revisions, integrity, signal }: UpgradeContext,
): Promise<number> {
  const ids = current()
    .filter(isLegacy)
    .map((entry) => entry.id);
  let upgraded = 0;
  for (let start = 0; start < ids.length; start += LEGACY_UPGRADE_SLICE) {
    if (signal?.aborted) break;
    if (start > 0) await yieldToMain();
    const slice = new Set(ids.slice(start, start + LEGACY_UPGRADE_SLICE));
    const entries = current().filter((entry): entry is OpenEntry => slice.has(entry.id) && isLegacy(entry));
    const results = await Promise.all(
      entries.map((entry) => upgradeOne(vaultKey, entry, { dispatch, revisions, integrity, signal })),
    );
    upgraded += results.filter(Boolean).length;
  }
  if (upgraded > 0) logInfo('Vault', `${upgraded} entr${upgraded === 1 ? 'y was' : 'ies were'} saved again in the item format.`);
  return upgraded;
}

async function upgradeOne(
  vaultKey: CryptoKey,
  entry: OpenEntry,
  { dispatch, revisions, integrity, signal }: Omit<UpgradeContext, 'current'>,
): Promise<boolean> {
  try {
    const draft = await openDraft(vaultKey, entry);
    const sealed = await sealEntry(vaultKey, entry.id, draft);
    if (signal?.aborted) return false;
    const request = toUpdateRequest(sealed, entry.revision);
    const replaceEntries = [{ member: writtenEntryMember(sealed, entry.revision + 1), name: draft.serviceName }];
    const send = async (state: string | undefined) =>
      (await api.call('update-entry', { params: { id: entry.id }, body: request, headers: vaultStateHeaders(state) })).data;
    const wire = await writeThrough(integrity, () => ({ replaceEntries }), send);
    const saved = await openEntry(vaultKey, wire, { revisions });
    if (saved && !signal?.aborted) dispatch({ type: 'saved', entry: saved });
    return saved?.status === 'open';
  } catch (error) {
    if (entryConflictOf(error))
      logInfo(
        'Vault',
        'an entry changed elsewhere before it could be saved in the item format; it will be tried again at the next unlock.',
      );
    else logFailure('Saving an entry in the item format', error);
    return false;
  }
}
