import { apiPaths } from '@lockit/contract';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, signedInRoutes } from '@/testing/fake-api';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { advance, installFakeClock } from '@/testing/timers';
import { unlockedKeyring } from '@/testing/vault-fixtures';
import { AUTO_LOCK_STORAGE_KEY, saveAutoLockMinutes } from './auto-lock';

const MINUTE = 60_000;
const routes = pageRoutes({ '/home': <h1>Any page</h1> });

async function unlockedApp() {
  const { keyring } = await unlockedKeyring();
  installFakeClock();
  const api = fakeApi(signedInRoutes());
  const app = renderApp('/home', { routes, keyring });
  await screen.findByRole('heading', { name: 'Any page' });
  return { api, app, keyring };
}

describe('Idle lock', () => {
  it('locks the vault after 15 minutes without activity by default, on any page, keeping the session', async () => {
    const { api, keyring } = await unlockedApp();
    await advance(15 * MINUTE - 1_000);
    expect(keyring.vault).not.toBeNull();
    await advance(1_000);
    expect(keyring.vault).toBeNull();
    expect(api.to('POST', apiPaths.logout)).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });

  it.each([
    ['a key press', () => fireEvent.keyDown(document.body, { key: 'a' })],
    ['a pointer move', () => fireEvent.pointerMove(document.body)],
    ['a scroll', () => fireEvent.scroll(document)],
    ['a focus change', () => fireEvent.focusIn(document.body)],
  ])('counts %s as activity', async (_name, act) => {
    const { keyring } = await unlockedApp();
    await advance(10 * MINUTE);
    act();
    await advance(10 * MINUTE);
    expect(keyring.vault).not.toBeNull();
    await advance(5 * MINUTE);
    expect(keyring.vault).toBeNull();
  });

  it('follows the time chosen in Profile, stored as a plain number', async () => {
    window.localStorage.setItem(AUTO_LOCK_STORAGE_KEY, '1');
    const { keyring } = await unlockedApp();
    await advance(MINUTE);
    expect(keyring.vault).toBeNull();
  });

  it('applies a new choice at once, counted from the last activity', async () => {
    const { keyring } = await unlockedApp();
    await advance(4 * MINUTE);
    saveAutoLockMinutes(5);
    await advance(MINUTE - 1_000);
    expect(keyring.vault).not.toBeNull();
    await advance(1_000);
    expect(keyring.vault).toBeNull();
  });

  it('ignores a stored value that is not one of the choices', async () => {
    window.localStorage.setItem(AUTO_LOCK_STORAGE_KEY, '0');
    const { keyring } = await unlockedApp();
    await advance(14 * MINUTE);
    expect(keyring.vault).not.toBeNull();
    await advance(MINUTE);
    expect(keyring.vault).toBeNull();
  });

  it('locks at once when a tab comes back after the time has passed (timers held back meanwhile)', async () => {
    const { keyring } = await unlockedApp();
    // The clock jumps (a sleeping laptop) without the timer having fired yet.
    vi.setSystemTime(Date.now() + 16 * MINUTE);
    fireEvent(document, new Event('visibilitychange'));
    expect(keyring.vault).toBeNull();
  });

  it('reads nothing from localStorage while no vault is unlocked (a first visit), and does once one is', async () => {
    const getItem = vi.spyOn(Storage.prototype, 'getItem');
    fakeApi();
    const locked = renderApp('/home', { routes });
    await screen.findByRole('heading', { name: 'Any page' });
    expect(getItem).not.toHaveBeenCalledWith(AUTO_LOCK_STORAGE_KEY);
    locked.unmount();

    await unlockedApp();
    expect(getItem).toHaveBeenCalledWith(AUTO_LOCK_STORAGE_KEY);
  });
});
