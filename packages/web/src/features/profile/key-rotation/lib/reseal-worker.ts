/**
 * Key rotation worker: the client core's re-encryption jobs (serveResealJobs) off the page's
 * main thread, several workers side by side (use-key-rotation.ts makes the pool).
 */
import { serveResealJobs, type WorkerScope } from '@lockit/client-core';

serveResealJobs(self as unknown as WorkerScope);
