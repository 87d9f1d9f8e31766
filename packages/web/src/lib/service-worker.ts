import { useEffect } from 'react';
import { logFailure } from './log';

/** Written by the build (tools/service-worker-build.ts) at the root, so its scope is the whole app. */
const SERVICE_WORKER_URL = '/sw.js';

/**
 * Installs the app's service worker (service-worker/service-worker.ts), which lets the app open
 * with the network off. Only once a person reached their vault: a first visit to the landing
 * pages downloads nothing for an app it may never use. Not in development, where Vite serves
 * unbundled sources no precache list names.
 */
export function useAppServiceWorker(): void {
  useEffect(() => {
    if (import.meta.env.DEV || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
    navigator.serviceWorker.register(SERVICE_WORKER_URL).catch((error: unknown) => logFailure('Offline app', error));
  }, []);
}
