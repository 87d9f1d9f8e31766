import { apiPaths } from '@lockit/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, route, signedInRoutes } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { makeUnlockedVault } from '@/testing/crypto-fixtures';
import type { OfflineCopy } from '@lockit/client-core';
import { Keyring } from '@/lib/keyring';
import { rememberOpenedOffline } from '@/lib/offline/opened-offline-registry';

const mainNav = () => screen.getByRole('navigation', { name: 'Main' });
const linkNames = (nav: HTMLElement) =>
  within(nav)
    .getAllByRole('link')
    .map((link) => link.textContent);

async function renderAbout(options: Parameters<typeof renderApp>[1] = {}) {
  const app = renderApp('/about', options);
  await screen.findByRole('heading', { name: 'About Lockit' });
  return app;
}

describe('Header', () => {
  it('shows Home, About, Sign In and Sign Up to a visitor without a session', async () => {
    const api = fakeApi();
    await renderAbout();
    await waitFor(() => expect(api.to('POST', apiPaths.verifySession)).toHaveLength(1));
    expect(linkNames(mainNav())).toEqual(['Home', 'About', 'Sign In', 'Sign Up']);
    expect(within(mainNav()).queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
  });

  it('shows Vault, Profile and Logout once the session check answers "Success"', async () => {
    fakeApi(signedInRoutes());
    await renderAbout();
    await waitFor(() => expect(linkNames(mainNav())).toEqual(['Home', 'About', 'Vault', 'Profile']));
    expect(within(mainNav()).getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(within(mainNav()).queryByRole('link', { name: 'Sign In' })).not.toBeInTheDocument();
  });

  it('stays signed out when the check answers 200 with another message', async () => {
    const api = fakeApi({ [route('POST', apiPaths.verifySession)]: { status: 200, body: { message: 'Nope' } } });
    await renderAbout();
    await waitFor(() => expect(api.to('POST', apiPaths.verifySession)).toHaveLength(1));
    expect(linkNames(mainNav())).toContain('Sign In');
  });

  it('sends the check with cookies and the client header, and runs it again when the flag changes', async () => {
    const api = fakeApi(signedInRoutes());
    await renderAbout();
    await waitFor(() => expect(api.to('POST', apiPaths.verifySession)).toHaveLength(2));
    const [first] = api.to('POST', apiPaths.verifySession);
    expect(first?.credentials).toBe('include');
    expect(first?.headers['x-lockit-client']).toBe('web');
  });

  it('only logs a failed check and keeps the signed-in links', async () => {
    const api = fakeApi(signedInRoutes());
    const { queryClient } = await renderAbout();
    await waitFor(() => expect(linkNames(mainNav())).toContain('Profile'));
    await waitFor(() => expect(api.to('POST', apiPaths.verifySession)).toHaveLength(2));

    api.set(route('POST', apiPaths.verifySession), 'network-error');
    await queryClient.invalidateQueries({ queryKey: ['session'] });
    await waitFor(() =>
      expect(console.warn).toHaveBeenCalledWith('[Lockit] Session check failed: Network error: the server could not be reached.'),
    );
    expect(linkNames(mainNav())).toContain('Profile');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('logs the server message of a failed check', async () => {
    fakeApi({ [route('POST', apiPaths.verifySession)]: { status: 503, body: { message: 'Down for maintenance.' } } });
    await renderAbout();
    await waitFor(() => expect(console.warn).toHaveBeenCalledWith('[Lockit] Session check failed: Down for maintenance.'));
    expect(linkNames(mainNav())).toContain('Sign In');
  });

  it('shows the vault’s links while the vault is open from the offline copy and the server cannot be reached', async () => {
    const api = fakeApi({ [route('POST', apiPaths.verifySession)]: { status: 503, body: { message: 'Unavailable' } } });
    const keyring = new Keyring();
    const { vault } = await makeUnlockedVault('alice', 'pw');
    rememberOpenedOffline(vault.vaultKey, {} as OfflineCopy);
    keyring.unlock(vault);
    await renderAbout({ keyring });
    await waitFor(() => expect(api.to('POST', apiPaths.verifySession)).toHaveLength(1));
    expect(linkNames(mainNav())).toEqual(['Home', 'About', 'Vault', 'Profile']);
  });

  it('shows the signed-out links beside a vault unlocked online once the session is gone', async () => {
    const api = fakeApi({ [route('POST', apiPaths.verifySession)]: { status: 401, body: { message: 'Please sign in.' } } });
    const keyring = new Keyring();
    keyring.unlock((await makeUnlockedVault('alice', 'pw')).vault);
    await renderAbout({ keyring });
    await waitFor(() => expect(api.to('POST', apiPaths.verifySession)).toHaveLength(1));
    expect(linkNames(mainNav())).toEqual(['Home', 'About', 'Sign In', 'Sign Up']);
  });

  it('logs out: locks the vault, shows the signed-out links and goes to /signin', async () => {
    const api = fakeApi({
      ...signedInRoutes(),
      [route('POST', apiPaths.logout)]: { status: 200, body: { message: 'Logged out' } },
    });
    const keyring = new Keyring();
    keyring.unlock((await makeUnlockedVault('alice', 'pw')).vault);
    const app = await renderAbout({ keyring });
    const logout = await within(mainNav()).findByRole('button', { name: 'Logout' });

    api.set(route('POST', apiPaths.verifySession), { status: 401, body: { message: 'Please sign in.' } });
    await app.user.click(logout);

    await screen.findByRole('heading', { name: 'Sign In' });
    expect(app.pathname()).toBe('/signin');
    expect(linkNames(mainNav())).toEqual(['Home', 'About', 'Sign In', 'Sign Up']);
    expect(keyring.vault).toBeNull();
    expect(api.to('POST', apiPaths.logout)).toHaveLength(1);
  });

  it('only logs a failed logout: the flag and the page stay', async () => {
    fakeApi({
      ...signedInRoutes(),
      [route('POST', apiPaths.logout)]: { status: 500, body: { message: 'Could not log out.' } },
    });
    const app = await renderAbout();
    await app.user.click(await within(mainNav()).findByRole('button', { name: 'Logout' }));

    await waitFor(() => expect(console.warn).toHaveBeenCalledWith('[Lockit] Logout failed: Could not log out.'));
    expect(app.pathname()).toBe('/about');
    expect(within(mainNav()).getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });

  it('underlines the active link only', async () => {
    fakeApi();
    await renderAbout();
    const about = within(mainNav()).getByRole('link', { name: 'About' });
    const home = within(mainNav()).getByRole('link', { name: 'Home' });
    expect(about).toHaveAttribute('aria-current', 'page');
    expect(about).toHaveClass('underline');
    expect(home).not.toHaveClass('underline');
    expect(home).not.toHaveAttribute('aria-current');
  });
});

describe('Mobile menu', () => {
  const panel = () => document.getElementById('mobile-menu') as HTMLElement;

  it('is closed, hidden and inert at first', async () => {
    fakeApi();
    await renderAbout();
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
    expect(panel()).toHaveAttribute('aria-hidden', 'true');
    expect(panel()).toHaveAttribute('inert');
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).not.toBeInTheDocument();
  });

  it('slides in as a 90%-wide panel capped at max-w-sm and closes with its close button', async () => {
    fakeApi();
    const app = await renderAbout();
    await app.user.click(screen.getByRole('button', { name: 'Open menu' }));

    const nav = screen.getByRole('navigation', { name: 'Mobile' });
    expect(linkNames(nav)).toEqual(['Home', 'About', 'Sign In', 'Sign Up']);
    expect(panel()).toHaveClass('w-[90%]', 'max-w-sm', 'translate-x-0');
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('button', { name: 'Close menu' })).toHaveFocus();

    await app.user.click(screen.getByRole('button', { name: 'Close menu' }));
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).not.toBeInTheDocument();
    expect(panel()).toHaveClass('translate-x-full');
  });

  it('closes when a link is chosen, and follows it', async () => {
    fakeApi();
    const app = await renderAbout();
    await app.user.click(screen.getByRole('button', { name: 'Open menu' }));
    await app.user.click(within(screen.getByRole('navigation', { name: 'Mobile' })).getByRole('link', { name: 'Home' }));

    expect(app.pathname()).toBe('/home');
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).not.toBeInTheDocument();
  });

  it('closes on a click outside it, but not on a click inside it', async () => {
    fakeApi();
    const app = await renderAbout();
    await app.user.click(screen.getByRole('button', { name: 'Open menu' }));

    await app.user.click(panel());
    expect(screen.getByRole('navigation', { name: 'Mobile' })).toBeInTheDocument();

    await app.user.click(screen.getByRole('heading', { name: 'About Lockit' }));
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).not.toBeInTheDocument();
  });

  it('closes on Escape and gives focus back to the menu button', async () => {
    fakeApi();
    const app = await renderAbout();
    await app.user.click(screen.getByRole('button', { name: 'Open menu' }));
    await app.user.keyboard('{Escape}');
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveFocus();
  });

  it('offers Logout when signed in', async () => {
    fakeApi(signedInRoutes());
    const app = await renderAbout();
    await waitFor(() => expect(linkNames(mainNav())).toContain('Profile'));
    await app.user.click(screen.getByRole('button', { name: 'Open menu' }));
    const nav = screen.getByRole('navigation', { name: 'Mobile' });
    expect(linkNames(nav)).toEqual(['Home', 'About', 'Vault', 'Profile']);
    expect(within(nav).getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });
});
