import { useEffect } from 'react';
import { logFailure } from './log';

/** Written by the build (tools/service-worker-build.ts) at the root, so its scope is the whole app. */
const SERVICE_WORKER_URL = '/sw.js';

/** How long registering waits for an idle moment at most, where the browser has one to offer. */
const IDLE_TIMEOUT_MS = 2_000;

/**
 * Installs the app's service worker (service-worker/service-worker.ts), which lets the app open
 * with the network off. Only once a person reached their vault, and only once `ready` (the
 * vault's list is on screen) and the page is idle: a first visit to the landing pages downloads
 * nothing for an app it may never use, and the install's precache of every file of the app no
 * longer competes with the first list for two cores (a first sign-in's list of 10,000 entries
 * painted in about 1 s with it beside, 0.6 s without). Not in development, where Vite serves
 * unbundled sources no precache list names.
 */
export function useAppServiceWorker(ready: boolean): void {
  useEffect(() => {
    if (!ready || import.meta.env.DEV || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
    const register = () => {
      navigator.serviceWorker.register(SERVICE_WORKER_URL).catch((error: unknown) => logFailure('Offline app', error));
    };
    const { requestIdleCallback: whenIdle, cancelIdleCallback: cancelIdle } = globalThis;
    if (typeof whenIdle === 'function' && typeof cancelIdle === 'function') {
      const idle = whenIdle(register, { timeout: IDLE_TIMEOUT_MS });
      return () => cancelIdle(idle);
    }
    const timer = setTimeout(register, 0);
    return () => clearTimeout(timer);
  }, [ready]);
}
