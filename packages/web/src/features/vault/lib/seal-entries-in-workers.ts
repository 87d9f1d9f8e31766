import { inWorkersOrHere } from '@lockit/client-core';
import { runInSlices, workersPayOffFor } from './crypto-worker-pool';
import type { CryptoSliceResponse } from './crypto-worker-protocol';
import { sealEntry, type SealedEntry } from '@lockit/client-core';
import type { EntryDraft } from '@lockit/client-core';
import { yieldToMain } from '@lockit/client-core';

/** New entries per message to a worker: a few hundred encryptions, a few milliseconds to copy. */
const SLICE_SIZE = 200;
/** Entries sealed per round on the page: keeps each round's synchronous work to a few milliseconds. */
const PAGE_GROUP = 20;

type SealedSlice = Extract<CryptoSliceResponse, { kind: 'seal' }>;

/**
 * Seals many new entries (an import) in the crypto workers (crypto-worker-pool.ts), in the
 * order given; where workers are unavailable, or for a few entries, on the page in small
 * groups with a yield between them. `onProgress` hears how many are sealed so far. A draft
 * that cannot be sealed (outside the contract's caps) rejects the whole call with its reason.
 *
 * Security invariant: drafts and vault key go only to this page's own workers; what comes
 * back is ciphertext, each field bound to its entry id and purpose as sealEntry binds it.
 */
export async function sealEntriesInWorkers(
  vaultKey: CryptoKey,
  items: readonly { id: string; draft: EntryDraft }[],
  { onProgress, signal }: { onProgress?: (sealed: number) => void; signal?: AbortSignal } = {},
): Promise<SealedEntry[]> {
  return inWorkersOrHere(
    workersPayOffFor(items.length),
    async () => {
      const slices = await runInSlices<{ id: string; draft: EntryDraft }, SealedSlice>(
        items,
        SLICE_SIZE,
        (slice) => ({ kind: 'seal', vaultKey, items: slice }),
        { signal, onSlice: (_answer, size) => onProgress?.(size) },
      );
      return slices.flatMap((slice) => slice.sealed);
    },
    async () => {
      const sealed: SealedEntry[] = [];
      for (let start = 0; start < items.length; start += PAGE_GROUP) {
        const group = items.slice(start, start + PAGE_GROUP);
        sealed.push(...(await Promise.all(group.map(({ id, draft }) => sealEntry(vaultKey, id, draft)))));
        onProgress?.(group.length);
        await yieldToMain();
        signal?.throwIfAborted();
      }
      return sealed;
    },
  );
}
