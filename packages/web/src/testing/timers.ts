import { act } from '@testing-library/react';
import { vi } from 'vitest';

/**
 * Testing Library detects fake timers through a global `jest` object; under Vitest there is
 * none, and its async helpers then wait on a fake setTimeout(0) that never fires. The shim
 * below exists only while `installFakeClock` is active, so the helpers advance the fake clock
 * exactly as they do under Jest.
 */
let jestShim: { advanceTimersByTime(ms: number): void } | undefined;
Object.defineProperty(globalThis, 'jest', { configurable: true, get: () => jestShim });

/** A fully fake clock: time moves only when the test advances it. */
export function installFakeClock(): void {
  vi.useFakeTimers();
  jestShim = { advanceTimersByTime: (ms) => vi.advanceTimersByTime(ms) };
}

/**
 * Fake timers that also follow real time. Flows that run real WebCrypto/Argon2 work need
 * real time to pass; the app's own timers (toasts, redirects) can still be jumped over.
 * Assertions on a duration therefore leave a margin for the few real milliseconds between
 * the moment a timer starts and the moment the test sees it.
 */
export function installFakeClockWithRealTime(): void {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  jestShim = undefined;
}

export function useRealClock(): void {
  vi.useRealTimers();
  jestShim = undefined;
}

/** Advance the fake clock inside act, so React flushes what the timers did. */
export async function advance(ms: number): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}
