/**
 * Decryption worker: opens slices of the vault's list (open-entries.ts openEntry: wire schema,
 * four fields, the overview document, the search text) off the page's main thread, several
 * workers side by side (open-entries-in-workers.ts).
 *
 * Security invariant: the vault key arrives as a CryptoKey (structured clone; a
 * non-extractable key stays non-extractable) and, like the entries, is held only while its
 * slice is opened: nothing is kept between messages. Rollback checks stay on the page, which
 * holds the revision memory.
 */
import { openEntry } from './open-entries';
import type { OpenSliceRequest, OpenSliceResponse } from './open-entries-protocol';

interface WorkerScope {
  onmessage: ((event: MessageEvent<OpenSliceRequest>) => void) | null;
  postMessage(message: OpenSliceResponse): void;
}

const scope = self as unknown as WorkerScope;

scope.onmessage = (event) => {
  const { slice, vaultKey, raw } = event.data;
  Promise.all(raw.map((entry) => openEntry(vaultKey, entry))).then(
    (entries) => scope.postMessage({ slice, ok: true, entries }),
    () => scope.postMessage({ slice, ok: false }),
  );
};
