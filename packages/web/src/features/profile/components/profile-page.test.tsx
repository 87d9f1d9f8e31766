import { apiPaths } from '@lockit/contract';
import { DEFAULT_KDF_PARAMS, deriveKeysFromPassword, unwrapVaultKey, type KdfParams } from '@lockit/crypto';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { accountRefOf } from '@lockit/client-core';
import { deviceMemory } from '@/lib/device-memory';
import { Keyring } from '@/lib/keyring';
import { checkRememberedKeyGeneration, rememberKeyGeneration } from '@/testing/device-memory-by-name';
import { makeUnlockedVault } from '@/testing/crypto-fixtures';
import { deferred } from '@/testing/deferred';
import { fakeApi, route, signedInRoutes, type FakeAnswer, type FakeRoute } from '@/testing/fake-api';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { ProfilePage } from './profile-page';

const routes = pageRoutes({
  '/profile': <ProfilePage />,
  '/signin': <h1>Sign-in page</h1>,
  '/signup': <h1>Sign-up page</h1>,
});

async function renderProfile(extra: Record<string, FakeRoute> = {}, keyring = new Keyring()) {
  const api = fakeApi({ ...signedInRoutes(), ...extra });
  const app = renderApp('/profile', { routes, keyring });
  await screen.findByRole('heading', { name: 'alice' });
  return { api, app };
}

describe('Profile page', () => {
  beforeEach(() => {
    vi.spyOn(window, 'alert').mockImplementation(() => {});
  });

  it('shows "Loading..." while the profile loads', async () => {
    const answer = deferred<FakeAnswer>();
    fakeApi({ [route('GET', apiPaths.profile)]: () => answer.promise });
    renderApp('/profile', { routes });
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    answer.resolve({
      status: 200,
      body: { message: 'Success', data: { username: 'alice', email: 'a@example.com', fullname: 'A' } },
    });
    expect(await screen.findByRole('heading', { name: 'alice' })).toBeInTheDocument();
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
  });

  it('goes to /signin when the profile cannot be fetched', async () => {
    fakeApi();
    const app = renderApp('/profile', { routes });
    await screen.findByRole('heading', { name: 'Sign-in page' });
    expect(app.pathname()).toBe('/signin');
  });

  it('shows the avatar letter in upper case, the username and the email', async () => {
    await renderProfile();
    expect(screen.getByRole('img', { name: 'Avatar of alice' })).toHaveTextContent(/^A$/);
    expect(screen.getByText('alice@example.com')).toBeInTheDocument();
  });

  describe('username', () => {
    it('updates the shown name and closes the edit box on success', async () => {
      const { app, api } = await renderProfile({
        [route('PUT', apiPaths.updateUsername)]: {
          status: 200,
          body: { message: 'Username updated', data: { username: 'bob' } },
        },
      });
      await app.user.click(screen.getByRole('button', { name: 'Edit username' }));
      const input = screen.getByLabelText('New Username');
      expect(input).toHaveValue('alice');
      await app.user.clear(input);
      await app.user.type(input, 'bob');
      await app.user.click(screen.getByRole('button', { name: 'Update Username' }));

      expect(await screen.findByRole('heading', { name: 'bob' })).toBeInTheDocument();
      expect(screen.getByRole('img', { name: 'Avatar of bob' })).toHaveTextContent('B');
      expect(screen.queryByLabelText('New Username')).not.toBeInTheDocument();
      expect(api.to('PUT', apiPaths.updateUsername)[0]?.body).toEqual({ username: 'bob' });
    });

    it("moves this browser's memory of the account to the name typed, whatever name the server answers", async () => {
      await rememberKeyGeneration('alice', 4);
      const { app } = await renderProfile({
        // A look-alike of what was typed: the memory must not follow it there.
        [route('PUT', apiPaths.updateUsername)]: {
          status: 200,
          body: { message: 'Username updated', data: { username: 'b\u043eb' } },
        },
      });
      await app.user.click(screen.getByRole('button', { name: 'Edit username' }));
      await app.user.clear(screen.getByLabelText('New Username'));
      await app.user.type(screen.getByLabelText('New Username'), 'bob');
      await app.user.click(screen.getByRole('button', { name: 'Update Username' }));
      await screen.findByRole('heading', { name: 'b\u043eb' });

      await waitFor(async () => expect(await deviceMemory.sessionAccount()).toBe(await accountRefOf('bob')));
      await expect(checkRememberedKeyGeneration('bob', 3)).rejects.toThrow(/older key/);
      await expect(checkRememberedKeyGeneration('alice', 0)).resolves.toBeUndefined();
      await expect(checkRememberedKeyGeneration('b\u043eb', 0)).resolves.toBeUndefined();
    });

    it('alerts "Username update failed." on failure and keeps the old name', async () => {
      const { app } = await renderProfile({
        [route('PUT', apiPaths.updateUsername)]: { status: 409, body: { message: 'Username is already taken.' } },
      });
      await app.user.click(screen.getByRole('button', { name: 'Edit username' }));
      await app.user.type(screen.getByLabelText('New Username'), 'x');
      await app.user.click(screen.getByRole('button', { name: 'Update Username' }));
      await waitFor(() => expect(window.alert).toHaveBeenCalledWith('Username update failed.'));
      expect(screen.getByRole('heading', { name: 'alice' })).toBeInTheDocument();
    });

    it('toggles the edit box closed again', async () => {
      const { app } = await renderProfile();
      const toggle = screen.getByRole('button', { name: 'Edit username' });
      await app.user.click(toggle);
      expect(toggle).toHaveAttribute('aria-expanded', 'true');
      await app.user.click(toggle);
      expect(screen.queryByLabelText('New Username')).not.toBeInTheDocument();
    });
  });

  describe('change password', () => {
    const OLD = 'old master password';
    const NEW = 'new master password';

    async function fill(app: ReturnType<typeof renderApp>, current: string, next: string, confirmation = next) {
      if (current) await app.user.type(screen.getByLabelText('Current Password'), current);
      if (next) await app.user.type(screen.getByLabelText('New Password'), next);
      if (confirmation) await app.user.type(screen.getByLabelText('Confirm new password'), confirmation);
      await app.user.click(screen.getByRole('button', { name: 'Save Password' }));
    }

    it.each([
      ['shorter than 12 characters', 'Zq7!vK2#', 'Zq7!vK2#', 'Use at least 12 characters.'],
      ['guessable', 'password1234', 'password1234', 'This password is too easy to guess. Add another word or two'],
      ['not confirmed', NEW, `${NEW}!`, 'The passwords do not match.'],
    ])('refuses a new password %s with the reason, and sends nothing', async (_case, next, confirmation, reason) => {
      const keyring = new Keyring();
      keyring.unlock((await makeUnlockedVault('alice', OLD)).vault);
      const { app, api } = await renderProfile({}, keyring);
      await fill(app, OLD, next, confirmation);
      expect(await screen.findByRole('alert')).toHaveTextContent(reason);
      expect(window.alert).not.toHaveBeenCalled();
      expect(api.to('PUT', apiPaths.changePassword)).toHaveLength(0);
    });

    it.each([
      ['both empty', '', ''],
      ['new empty', OLD, ''],
      ['current empty', '', NEW],
    ])('alerts "Please fill both fields." (%s) and sends nothing', async (_case, current, next) => {
      const { app, api } = await renderProfile();
      await fill(app, current, next);
      expect(window.alert).toHaveBeenCalledWith('Please fill both fields.');
      expect(api.to('PUT', apiPaths.changePassword)).toHaveLength(0);
    });

    it('re-wraps the same vault key under a fresh salt and default params, and updates the keyring', async () => {
      const keyring = new Keyring();
      const { account, vault } = await makeUnlockedVault('alice', OLD);
      keyring.unlock(vault);
      const { app, api } = await renderProfile(
        { [route('PUT', apiPaths.changePassword)]: { status: 200, body: { message: 'Password updated' } } },
        keyring,
      );
      await fill(app, OLD, NEW);
      await waitFor(() => expect(window.alert).toHaveBeenCalledWith('✅ Password updated successfully'));

      const body = api.to('PUT', apiPaths.changePassword)[0]?.body as {
        oldPassword: string;
        newPassword: string;
        kdf: KdfParams;
        salt: string;
        protectedKey: string;
        keyGeneration: number;
      };
      expect(body.oldPassword).toBe(account.authKey);
      expect(body.kdf).toEqual(DEFAULT_KDF_PARAMS);
      // The next key generation, bound into the new wrap.
      expect(body.keyGeneration).toBe(1);
      expect(body.salt).not.toBe(account.salt);
      const newKeys = await deriveKeysFromPassword(NEW, body.salt, body.kdf);
      expect(body.newPassword).toBe(newKeys.authKey);
      expect(await unwrapVaultKey(body.protectedKey, newKeys.wrapKey, body.kdf, body.salt, 1)).toEqual(account.vaultKeyBytes);
      expect(JSON.stringify(body)).not.toContain(OLD);
      expect(JSON.stringify(body)).not.toContain(NEW);

      expect(keyring.vault).toMatchObject({ kdf: body.kdf, salt: body.salt, protectedKey: body.protectedKey, keyGeneration: 1 });
      expect(keyring.vault?.vaultKey).toBe(vault.vaultKey);
      expect(screen.getByLabelText('Current Password')).toHaveValue('');
    });

    it('says the new master password never leaves the browser, offers no breach check of it, and calls only the API', async () => {
      const keyring = new Keyring();
      keyring.unlock((await makeUnlockedVault('alice', OLD)).vault);
      const { app, api } = await renderProfile(
        { [route('PUT', apiPaths.changePassword)]: { status: 200, body: { message: 'Password updated' } } },
        keyring,
      );
      expect(screen.getByText(/Your master password never leaves this browser, in any form/)).toBeInTheDocument();
      expect(screen.queryByRole('checkbox', { name: /breach/i })).toBeNull();
      await fill(app, OLD, NEW);
      await waitFor(() => expect(window.alert).toHaveBeenCalledWith('✅ Password updated successfully'));
      expect(api.fetchSpy.mock.calls.map(([input]) => new URL(String(input), window.location.href).pathname)).toSatisfy(
        (called: string[]) => called.every((path) => path.startsWith('/api/')),
      );
    });

    it('says the current password is wrong without sending anything when it does not unlock the vault key', async () => {
      const keyring = new Keyring();
      keyring.unlock((await makeUnlockedVault('alice', OLD)).vault);
      const { app, api } = await renderProfile({}, keyring);
      await fill(app, 'not the password', NEW);
      await waitFor(() => expect(window.alert).toHaveBeenCalledWith('Current password is incorrect.'));
      expect(api.to('PUT', apiPaths.changePassword)).toHaveLength(0);
    });

    it('alerts the server message when the server refuses', async () => {
      const keyring = new Keyring();
      const { vault } = await makeUnlockedVault('alice', OLD);
      keyring.unlock(vault);
      const { app, api } = await renderProfile(
        { [route('PUT', apiPaths.changePassword)]: { status: 403, body: { message: 'The server says no.' } } },
        keyring,
      );
      await fill(app, OLD, NEW);
      await waitFor(() => expect(window.alert).toHaveBeenCalledWith('The server says no.'));
      expect(api.to('PUT', apiPaths.changePassword)).toHaveLength(1);
      expect(keyring.vault).toMatchObject({ salt: vault.salt, protectedKey: vault.protectedKey });
    });

    it('alerts "❌ Password update failed." when there is no server message', async () => {
      const keyring = new Keyring();
      const { vault } = await makeUnlockedVault('alice', OLD);
      keyring.unlock(vault);
      const { app } = await renderProfile({ [route('PUT', apiPaths.changePassword)]: 'network-error' }, keyring);
      await fill(app, OLD, NEW);
      await waitFor(() => expect(window.alert).toHaveBeenCalledWith('❌ Password update failed.'));
      expect(keyring.vault?.salt).toBe(vault.salt);
    });

    it('re-wraps the vault key with the account key material when the vault is locked in this tab', async () => {
      const { account, vault } = await makeUnlockedVault('alice', OLD);
      const keyring = new Keyring();
      const { app, api } = await renderProfile(
        {
          [route('GET', apiPaths.keyMaterial)]: {
            status: 200,
            body: { message: 'Success', data: { kdf: vault.kdf, salt: vault.salt, protectedKey: vault.protectedKey } },
          },
          [route('PUT', apiPaths.changePassword)]: { status: 200, body: { message: 'Password updated' } },
        },
        keyring,
      );
      await fill(app, OLD, NEW);
      await waitFor(() => expect(window.alert).toHaveBeenCalledWith('✅ Password updated successfully'));
      const body = api.to('PUT', apiPaths.changePassword)[0]?.body as {
        oldPassword: string;
        kdf: KdfParams;
        salt: string;
        protectedKey: string;
      };
      expect(body.oldPassword).toBe(account.authKey);
      const newKeys = await deriveKeysFromPassword(NEW, body.salt, body.kdf);
      expect(await unwrapVaultKey(body.protectedKey, newKeys.wrapKey, body.kdf, body.salt, 1)).toEqual(account.vaultKeyBytes);
      expect(keyring.vault).toBeNull();
    });

    it('refuses key material below the KDF floor when the vault is locked, and sends nothing', async () => {
      const { vault } = await makeUnlockedVault('alice', OLD);
      const { app, api } = await renderProfile({
        [route('GET', apiPaths.keyMaterial)]: {
          status: 200,
          body: {
            message: 'Success',
            data: { kdf: { ...vault.kdf, memoryKiB: 1024, iterations: 1 }, salt: vault.salt, protectedKey: vault.protectedKey },
          },
        },
      });
      await fill(app, OLD, NEW);
      await waitFor(() => expect(window.alert).toHaveBeenCalledWith('❌ Password update failed.'));
      expect(api.to('PUT', apiPaths.changePassword)).toHaveLength(0);
    });
  });

  describe('delete account', () => {
    it('asks for confirmation, and Cancel deletes nothing', async () => {
      const { app, api } = await renderProfile();
      await app.user.click(screen.getByRole('button', { name: 'Delete Account' }));
      const dialog = screen.getByRole('dialog', { name: 'Delete Account' });
      expect(dialog).toHaveTextContent('Are you sure you want to permanently delete your account?');
      expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
      await app.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(api.to('DELETE', apiPaths.deleteAccount)).toHaveLength(0);
    });

    it('on "Yes, Delete" deletes, locks the vault and goes to /signup', async () => {
      const keyring = new Keyring();
      keyring.unlock((await makeUnlockedVault('alice', 'pw')).vault);
      const { app, api } = await renderProfile(
        { [route('DELETE', apiPaths.deleteAccount)]: { status: 200, body: { message: 'Account deleted' } } },
        keyring,
      );
      api.set(route('POST', apiPaths.verifySession), { status: 401, body: { message: 'Please sign in.' } });
      await app.user.click(screen.getByRole('button', { name: 'Delete Account' }));
      await app.user.click(screen.getByRole('button', { name: 'Yes, Delete' }));

      await screen.findByRole('heading', { name: 'Sign-up page' });
      expect(app.pathname()).toBe('/signup');
      expect(keyring.vault).toBeNull();
      expect(api.to('DELETE', apiPaths.deleteAccount)).toHaveLength(1);
      expect(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Sign In' })).toBeInTheDocument();
    });

    it('alerts "Failed to delete account" on failure and stays', async () => {
      const { app } = await renderProfile({
        [route('DELETE', apiPaths.deleteAccount)]: { status: 500, body: { message: 'Oops.' } },
      });
      await app.user.click(screen.getByRole('button', { name: 'Delete Account' }));
      await app.user.click(screen.getByRole('button', { name: 'Yes, Delete' }));
      await waitFor(() => expect(window.alert).toHaveBeenCalledWith('Failed to delete account'));
      expect(app.pathname()).toBe('/profile');
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
  });

  it('logs out and goes to /signin', async () => {
    const { app, api } = await renderProfile({
      [route('POST', apiPaths.logout)]: { status: 200, body: { message: 'Logged out' } },
    });
    api.set(route('POST', apiPaths.verifySession), { status: 401, body: { message: 'Please sign in.' } });
    await app.user.click(within(screen.getByRole('main')).getByRole('button', { name: 'Logout' }));
    await screen.findByRole('heading', { name: 'Sign-in page' });
    expect(api.to('POST', apiPaths.logout)).toHaveLength(1);
  });
});
