import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CLIPBOARD_CLEAR_STORAGE_KEY, readClipboardClearSeconds } from '@/lib/clipboard-clear';
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

const select = () => screen.getByRole('combobox', { name: 'Clear clipboard after' });

describe('Profile: clear clipboard after', () => {
  it('offers 10 s, 20 s, 30 s, 1, 2 and 5 minutes, 30 s by default, beside the auto-lock setting', async () => {
    await renderProfile();
    expect(select()).toHaveDisplayValue('30 seconds');
    expect([...(select() as HTMLSelectElement).options].map((option) => option.text)).toEqual([
      '10 seconds',
      '20 seconds',
      '30 seconds',
      '1 minute',
      '2 minutes',
      '5 minutes',
    ]);
    const headings = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(headings.indexOf('Clipboard')).toBe(headings.indexOf('Vault Lock') + 1);
  });

  it('stores the choice as a plain number of seconds in localStorage, and nothing else', async () => {
    const app = await renderProfile();
    await app.user.selectOptions(select(), '2 minutes');
    expect(window.localStorage.getItem(CLIPBOARD_CLEAR_STORAGE_KEY)).toBe('120');
    // Besides this browser's record of the session's account, which sign-in made, and the vault
    // manifests that vault tests run before in this worker may still write, on a timer of theirs.
    expect(
      Object.keys(window.localStorage).filter(
        (name) => name !== 'lockit.sessionAccount' && !name.startsWith('lockit.vaultManifest.'),
      ),
    ).toEqual([CLIPBOARD_CLEAR_STORAGE_KEY]);
    expect(readClipboardClearSeconds()).toBe(120);
    expect(select()).toHaveDisplayValue('2 minutes');
  });

  it('shows the stored choice, and the default for anything it does not offer', async () => {
    window.localStorage.setItem(CLIPBOARD_CLEAR_STORAGE_KEY, '10');
    const { unmount } = await renderProfile();
    expect(select()).toHaveDisplayValue('10 seconds');
    unmount();

    window.localStorage.setItem(CLIPBOARD_CLEAR_STORAGE_KEY, '0');
    await renderProfile();
    expect(select()).toHaveDisplayValue('30 seconds');
  });
});
