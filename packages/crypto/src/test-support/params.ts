import type { KdfParams } from '../kdf-params';

/** The cheapest params the policy accepts: tests use them to stay fast. */
export const FLOOR_PARAMS: KdfParams = Object.freeze({
  algorithm: 'argon2id',
  memoryKiB: 19456,
  iterations: 2,
  parallelism: 1,
}) as KdfParams;
