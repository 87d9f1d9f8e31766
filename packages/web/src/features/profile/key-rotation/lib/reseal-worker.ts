/**
 * Key rotation worker: re-encrypts slices of the vault (reseal.ts) off the page's main thread,
 * several workers side by side (reseal-in-workers.ts).
 *
 * Security invariant: the keys arrive as non-extractable CryptoKeys and, like the texts, are
 * held only while their slice is worked on; what is opened is sealed again at once and only
 * ciphertexts go back to the page.
 */
import { resealUnit } from './reseal';
import type { ResealSliceRequest, ResealSliceResponse } from './reseal-protocol';

interface WorkerScope {
  onmessage: ((event: MessageEvent<ResealSliceRequest>) => void) | null;
  postMessage(message: ResealSliceResponse): void;
}

const scope = self as unknown as WorkerScope;

scope.onmessage = (event) => {
  const { slice, keys, units } = event.data;
  Promise.all(units.map((unit) => resealUnit(keys, unit))).then(
    (resealed) => scope.postMessage({ slice, ok: true, resealed }),
    (error: unknown) =>
      scope.postMessage({ slice, ok: false, message: error instanceof Error ? error.message : 'A re-encryption worker failed.' }),
  );
};
