import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAppServiceWorker } from './service-worker';

let register: ReturnType<typeof vi.fn>;
let idleCallbacks: (() => void)[];

beforeEach(() => {
  // The production build's path: the hook does nothing under Vite's development server.
  vi.stubEnv('DEV', false);
  register = vi.fn(() => Promise.resolve({}));
  Object.defineProperty(navigator, 'serviceWorker', { value: { register }, configurable: true });
  idleCallbacks = [];
  vi.stubGlobal('requestIdleCallback', (callback: () => void) => idleCallbacks.push(callback));
  vi.stubGlobal('cancelIdleCallback', () => undefined);
});

afterEach(() => {
  Reflect.deleteProperty(navigator, 'serviceWorker');
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

describe('the app service worker', () => {
  it('is not registered while the vault list is not on screen: its precache would compete with the first list', () => {
    renderHook(() => useAppServiceWorker(false));
    for (const idle of idleCallbacks) idle();
    expect(register).not.toHaveBeenCalled();
  });

  it('is registered, once, at the first idle moment after the list is on screen', () => {
    const { rerender } = renderHook(({ ready }) => useAppServiceWorker(ready), { initialProps: { ready: false } });
    rerender({ ready: true });
    expect(register).not.toHaveBeenCalled();
    expect(idleCallbacks).toHaveLength(1);
    idleCallbacks[0]!();
    expect(register).toHaveBeenCalledExactlyOnceWith('/sw.js');
    rerender({ ready: true });
    expect(idleCallbacks).toHaveLength(1);
  });
});
