import type { WorkerScope } from '../../workers/worker-port';
import { serveJobs } from '../../workers/serve-jobs';
import { resealUnit, type ResealedUnit, type ResealKeys, type ResealUnit } from './reseal';

/**
 * One slice of a key rotation for a re-encryption worker. The keys travel as CryptoKeys
 * (structured clone: a non-extractable key stays non-extractable), never as bytes.
 */
export interface ResealSliceRequest {
  keys: ResealKeys;
  units: readonly ResealUnit[];
}

/** A slice's answer (the pool's job protocol carries its order and any failure). */
export type ResealSliceResponse = ResealedUnit[];

/**
 * A re-encryption worker's side: each slice's units re-encrypted under the new key.
 *
 * Security invariant: the keys arrive as non-extractable CryptoKeys and, like the texts, are
 * held only while their slice is worked on; what is opened is sealed again at once and only
 * ciphertexts go back.
 */
export function serveResealJobs(scope: WorkerScope): void {
  serveJobs<ResealSliceRequest, ResealSliceResponse>(scope, async ({ keys, units }) => ({
    answer: await Promise.all(units.map((unit) => resealUnit(keys, unit))),
  }));
}
