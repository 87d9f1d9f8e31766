import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AUTO_LOCK_STORAGE_KEY, readAutoLockMinutes } from '@/lib/auto-lock';
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

describe('Profile: auto-lock', () => {
  it('offers 1, 5, 15, 30 and 60 minutes, 15 by default', async () => {
    await renderProfile();
    const select = screen.getByRole('combobox', { name: 'Auto-lock after' });
    expect(select).toHaveDisplayValue('15 minutes');
    expect([...(select as HTMLSelectElement).options].map((o) => o.text)).toEqual([
      '1 minute',
      '5 minutes',
      '15 minutes',
      '30 minutes',
      '60 minutes',
    ]);
  });

  it('stores the choice as a plain number in localStorage, and nothing else', async () => {
    const app = await renderProfile();
    await app.user.selectOptions(screen.getByRole('combobox', { name: 'Auto-lock after' }), '5 minutes');
    expect(window.localStorage.getItem(AUTO_LOCK_STORAGE_KEY)).toBe('5');
    // Besides this browser's record of the session's account, which sign-in made, and the vault
    // manifests that vault tests run before in this worker may still write, on a timer of theirs.
    expect(
      Object.keys(window.localStorage).filter(
        (name) => name !== 'lockit.sessionAccount' && !name.startsWith('lockit.vaultManifest.'),
      ),
    ).toEqual([AUTO_LOCK_STORAGE_KEY]);
    expect(readAutoLockMinutes()).toBe(5);
    expect(screen.getByRole('combobox', { name: 'Auto-lock after' })).toHaveDisplayValue('5 minutes');
  });

  it('shows the stored choice', async () => {
    window.localStorage.setItem(AUTO_LOCK_STORAGE_KEY, '60');
    await renderProfile();
    expect(screen.getByRole('combobox', { name: 'Auto-lock after' })).toHaveDisplayValue('60 minutes');
  });
});
