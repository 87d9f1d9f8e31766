import type { ResealedUnit, ResealKeys, ResealUnit } from './reseal';

/**
 * One slice of a key rotation for a re-encryption worker (reseal-worker.ts). The keys travel
 * as CryptoKeys (structured clone: a non-extractable key stays non-extractable), never as bytes.
 */
export interface ResealSliceRequest {
  slice: number;
  keys: ResealKeys;
  units: readonly ResealUnit[];
}

/** A slice's answer, in its order, or why the worker failed. */
export type ResealSliceResponse =
  { slice: number; ok: true; resealed: ResealedUnit[] } | { slice: number; ok: false; message: string };
