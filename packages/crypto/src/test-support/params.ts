import type { KdfParams } from '../kdf-params';

/** The cheapest params the policy accepts: tests use them to stay fast. */
export const FLOOR_PARAMS: KdfParams = Object.freeze({
  algorithm: 'argon2id',
  memoryKiB: 65536,
  iterations: 3,
  parallelism: 1,
}) as KdfParams;
