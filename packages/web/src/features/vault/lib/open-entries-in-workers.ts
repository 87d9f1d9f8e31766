import { entryElementsOf, type EntryElement } from '@lockit/client-core';
import { runInSlices, workersPayOffFor, WorkerUnavailable } from './crypto-worker-pool';
import type { CryptoSliceResponse } from './crypto-worker-protocol';
import { openEntries, internFieldSet } from '@lockit/client-core';
import type { RevisionMemory } from '@lockit/client-core';
import { openSecrets } from '@lockit/client-core';
import { damagedEntry, type EntrySecrets, type VaultEntry } from '@lockit/client-core';
import { yieldToMain } from '@lockit/client-core';

/** Entries per message: a few milliseconds to copy each way, a few hundred decryptions. */
const SLICE_SIZE = 250;
/** Entries per slice when the page opens secrets itself: a short task between yields. */
const PAGE_SECRETS_SLICE = 250;

type OpenedSlice = Extract<CryptoSliceResponse, { kind: 'open' }>;

/**
 * openEntries (open-entries.ts), its slices spread over the crypto workers
 * (crypto-worker-pool.ts) so the page's main thread only copies entries in and out: no long
 * task blocks input while a large vault opens (decision 0040). The order of `raw` is kept;
 * the rollback check and the revision memory stay on the page. Where workers are unavailable
 * (tests, a browser without module workers, a script that fails to load) the page opens the
 * entries itself, the same way.
 */
export async function openEntriesInWorkers(
  vaultKey: CryptoKey,
  raw: readonly unknown[],
  { signal, revisions }: { signal?: AbortSignal; revisions?: RevisionMemory } = {},
): Promise<VaultEntry[]> {
  return (await openEntriesWithElements(vaultKey, undefined, raw, { signal, revisions })).entries;
}

/**
 * As openEntriesInWorkers, and with `integrityKey` each entry's integrity element (decision
 * 0053) computed beside it, in the same workers (or on the page, where they are unavailable):
 * the check at unlock then costs one pass of additions, not a second pass over the ciphertexts.
 * `elements` holds one per well-formed entry, whether or not it decrypts.
 */
export async function openEntriesWithElements(
  vaultKey: CryptoKey,
  integrityKey: CryptoKey | undefined,
  raw: readonly unknown[],
  { signal, revisions }: { signal?: AbortSignal; revisions?: RevisionMemory } = {},
): Promise<{ entries: VaultEntry[]; elements: EntryElement[] }> {
  const slices = workersPayOffFor(raw.length) ? await openSlices(vaultKey, raw, false, signal, undefined, integrityKey) : null;
  if (slices === null) {
    const [entries, elements] = await Promise.all([
      openEntries(vaultKey, raw, { signal, revisions }),
      integrityKey ? entryElementsOf(integrityKey, raw) : ([] as (EntryElement | null)[]),
    ]);
    return { entries, elements: elements.filter((element): element is EntryElement => element !== null) };
  }
  const elements: EntryElement[] = [];
  for (const slice of slices) for (const element of slice.elements ?? []) if (element !== null) elements.push(element);
  return { entries: openedOf(slices, revisions), elements };
}

function openedOf(slices: readonly OpenedSlice[], revisions: RevisionMemory | undefined): VaultEntry[] {
  const entries: VaultEntry[] = [];
  for (const slice of slices) {
    for (const entry of slice.entries) {
      if (entry === null) continue;
      if (entry.status !== 'open') {
        entries.push(entry);
      } else if (revisions?.isRollback(entry.id, entry.revision)) {
        const state = { revision: entry.revision, deletedAt: entry.deletedAt };
        entries.push(damagedEntry(entry.id, entry.createdAt, 'rolled-back', state));
      } else {
        revisions?.note(entry.id, entry.revision);
        entries.push(shared(entry));
      }
    }
  }
  return entries;
}

/** A whole entry as the export needs it: secrets null where it is damaged (or not open). */
export interface EntryWithSecrets {
  entry: VaultEntry;
  secrets: EntrySecrets | null;
}

/**
 * Every entry of `raw` with its secrets opened (password, notes, details), in the order of
 * `raw`, for the export: in the crypto workers as openEntriesInWorkers, or on the page in
 * slices where workers are unavailable. `onProgress` hears how many entries are open so far.
 *
 * Security invariant: as openEntriesInWorkers's; an entry whose secrets do not open comes back
 * with `secrets: null`, never with less in it.
 */
export async function openEntriesWithSecrets(
  vaultKey: CryptoKey,
  raw: readonly unknown[],
  { signal, onProgress }: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {},
): Promise<EntryWithSecrets[]> {
  const slices = workersPayOffFor(raw.length) ? await openSlices(vaultKey, raw, true, signal, onProgress) : null;
  if (slices !== null) {
    const opened: EntryWithSecrets[] = [];
    for (const slice of slices) {
      slice.entries.forEach((entry, i) => {
        if (entry !== null) opened.push({ entry: shared(entry), secrets: slice.secrets?.[i] ?? null });
      });
    }
    return opened;
  }
  const entries = await openEntries(vaultKey, raw, { signal });
  const opened: EntryWithSecrets[] = [];
  for (let start = 0; start < entries.length; start += PAGE_SECRETS_SLICE) {
    const slice = entries.slice(start, start + PAGE_SECRETS_SLICE);
    const secrets = await Promise.all(
      slice.map((entry) => (entry.status === 'open' ? openSecrets(vaultKey, entry).catch(() => null) : null)),
    );
    slice.forEach((entry, i) => opened.push({ entry, secrets: secrets[i] ?? null }));
    onProgress?.(opened.length, entries.length);
    await yieldToMain();
    signal?.throwIfAborted();
  }
  return opened;
}

/** The slices opened in the workers, or null where workers cannot run (the page then does it). */
async function openSlices(
  vaultKey: CryptoKey,
  raw: readonly unknown[],
  withSecrets: boolean,
  signal: AbortSignal | undefined,
  onProgress?: (done: number, total: number) => void,
  integrityKey?: CryptoKey,
): Promise<OpenedSlice[] | null> {
  let opened = 0;
  try {
    return await runInSlices<unknown, OpenedSlice>(
      raw,
      SLICE_SIZE,
      (slice) => ({ kind: 'open', vaultKey, raw: slice, withSecrets, ...(integrityKey && { integrityKey }) }),
      {
        signal,
        onSlice: (_answer, size) => onProgress?.((opened += size), raw.length),
      },
    );
  } catch (error) {
    if (error instanceof WorkerUnavailable) return null;
    throw error;
  }
}

/** A copy from a worker: share the field-set arrays again, as openEntries does. */
function shared(entry: VaultEntry): VaultEntry {
  if (entry.status === 'open' && entry.sealed.fieldSet !== undefined)
    entry.sealed.fieldSet = internFieldSet(entry.sealed.fieldSet);
  return entry;
}
