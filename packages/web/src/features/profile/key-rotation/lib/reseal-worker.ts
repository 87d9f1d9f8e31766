/**
 * Key rotation worker: re-encrypts slices of the vault (reseal.ts) off the page's main thread,
 * several workers side by side (reseal-in-workers.ts).
 *
 * Security invariant: the keys arrive as non-extractable CryptoKeys and, like the texts, are
 * held only while their slice is worked on; what is opened is sealed again at once and only
 * ciphertexts go back to the page.
 */
import { serveJobs, type WorkerScope } from '@lockit/client-core';
import { resealUnit } from './reseal';
import type { ResealSliceRequest, ResealSliceResponse } from './reseal-protocol';

serveJobs<ResealSliceRequest, ResealSliceResponse>(self as unknown as WorkerScope, async ({ keys, units }) => ({
  answer: await Promise.all(units.map((unit) => resealUnit(keys, unit))),
}));
