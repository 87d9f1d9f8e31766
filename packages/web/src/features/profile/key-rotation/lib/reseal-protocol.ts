import type { ResealedUnit, ResealKeys, ResealUnit } from './reseal';

/**
 * One slice of a key rotation for a re-encryption worker (reseal-worker.ts). The keys travel
 * as CryptoKeys (structured clone: a non-extractable key stays non-extractable), never as bytes.
 */
export interface ResealSliceRequest {
  keys: ResealKeys;
  units: readonly ResealUnit[];
}

/** A slice's answer (the pool's job protocol carries its order and any failure). */
export type ResealSliceResponse = ResealedUnit[];
