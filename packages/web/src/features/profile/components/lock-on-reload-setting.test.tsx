import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LOCK_ON_RELOAD_STORAGE_KEY, readLockOnReload } from '@/lib/reload-unlock/lock-on-reload';
import { fakeApi, signedInRoutes } from '@/testing/fake-api';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { ProfilePage } from './profile-page';

const routes = pageRoutes({ '/profile': <ProfilePage /> });

async function renderProfile() {
  fakeApi(signedInRoutes());
  const app = renderApp('/profile', { routes });
  await screen.findByRole('heading', { name: 'alice' });
  return app;
}

describe('Profile: lock on every reload', () => {
  it('is a switch in Vault Lock, off by default: a reload keeps the vault open', async () => {
    await renderProfile();
    const toggle = screen.getByRole('switch', { name: 'Lock on every reload' });
    expect(toggle).not.toBeChecked();
    expect(toggle).toHaveAccessibleDescription(/reloading this tab keeps your vault open until the auto-lock or logout/);
  });

  it('stores only "true" in localStorage when turned on, and removes it when turned off', async () => {
    const app = await renderProfile();
    const toggle = screen.getByRole('switch', { name: 'Lock on every reload' });
    await app.user.click(toggle);
    expect(toggle).toBeChecked();
    expect(window.localStorage.getItem(LOCK_ON_RELOAD_STORAGE_KEY)).toBe('true');
    expect(readLockOnReload()).toBe(true);
    await app.user.click(toggle);
    expect(toggle).not.toBeChecked();
    expect(window.localStorage.getItem(LOCK_ON_RELOAD_STORAGE_KEY)).toBeNull();
  });

  it('shows the stored choice, and treats anything but "true" as off', async () => {
    window.localStorage.setItem(LOCK_ON_RELOAD_STORAGE_KEY, 'yes');
    expect(readLockOnReload()).toBe(false);
    window.localStorage.setItem(LOCK_ON_RELOAD_STORAGE_KEY, 'true');
    await renderProfile();
    expect(screen.getByRole('switch', { name: 'Lock on every reload' })).toBeChecked();
  });
});
