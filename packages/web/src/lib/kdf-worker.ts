/**
 * Dedicated worker that runs Argon2id (64 MiB by default) off the page's main thread, so
 * typing, spinners and toasts keep working while keys are derived. It answers one request
 * with the master key bytes (transferred, not copied) and the page then terminates it.
 */
import { serveJobs, type WorkerScope } from '@lockit/client-core';
import { kdfJob, type KdfRequest, type KdfResponse } from './kdf-protocol';

serveJobs<KdfRequest, KdfResponse>(self as unknown as WorkerScope, kdfJob);
