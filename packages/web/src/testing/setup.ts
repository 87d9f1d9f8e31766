import '@testing-library/jest-dom/vitest';
import { webcrypto } from 'node:crypto';
import { format } from 'node:util';
import { cleanup, configure } from '@testing-library/react';
import { onlineManager } from '@tanstack/react-query';
import { afterEach, beforeEach, vi } from 'vitest';
import { setSessionHint } from './fake-api';
import { installVaultListLayout } from './layout';
import { useRealClock } from './timers';

// jsdom has no SubtleCrypto; Node's WebCrypto is the same standard API the browser provides.
if (!globalThis.crypto?.subtle) {
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
}

installVaultListLayout();

// findBy*/waitFor wait 1 s by default; unlocking and re-wrapping run real Argon2id, which on
// a 2-core machine busy with the other suites can take longer. A longer wait changes no
// assertion: a test still fails when what it waits for never comes.
configure({ asyncUtilTimeout: 5_000 });

let consoleErrors: string[] = [];

beforeEach(() => {
  // jsdom does not implement isSecureContext; its http://localhost page is one in browsers.
  Object.defineProperty(window, 'isSecureContext', { value: true, configurable: true });
  consoleErrors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(format(...args));
  });
  // The app logs expected failures with info/warn; tests assert on them where it matters.
  vi.spyOn(console, 'info').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
  useRealClock();
  vi.restoreAllMocks();
  // The app's preferences (auto-lock, clipboard delay, recent imports) live in localStorage;
  // each test starts without them.
  window.localStorage.clear();
  // A reload's wrapped vault key (decision 0048) lives in sessionStorage.
  window.sessionStorage.clear();
  setSessionHint(false);
  // React Query's online state is the module's, shared by every file of a worker: a test that
  // took the browser offline must not leave later files' queries paused.
  onlineManager.setOnline(true);
  if (consoleErrors.length > 0) {
    throw new Error(`console.error was called, which fails the test:\n${consoleErrors.join('\n---\n')}`);
  }
});
