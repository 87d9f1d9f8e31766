import { apiPaths } from '@lockit/contract';
import { generateVaultKeyBytes, importVaultKey } from '@lockit/crypto';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ProfilePage } from '@/features/profile/components/profile-page';
import { Keyring } from '@/lib/keyring';
import { makeUnlockedVault } from '@/testing/crypto-fixtures';
import { deferred } from '@/testing/deferred';
import { fakeApi, route, routePrefix, signedInRoutes, type FakeRequest, type FakeRoute } from '@/testing/fake-api';
import { keyRotationRoutes } from '@/testing/key-rotation-routes';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { sealedEntry, sealedFolder } from '@/testing/vault-fixtures';

const PASSWORD = 'correct horse battery staple';
const routes = pageRoutes({ '/profile': <ProfilePage /> });

/** One account for the file: its Argon2id runs once. */
let account: ReturnType<typeof makeUnlockedVault> | undefined;
const theAccount = () => (account ??= makeUnlockedVault('alice', PASSWORD));

/** Profile with an unlocked vault of one entry and one folder (no integrity state yet), served by the rotation routes. */
async function renderProfile(
  override: (rotation: ReturnType<typeof keyRotationRoutes>) => Record<string, FakeRoute> = () => ({}),
) {
  const { account: keys, vault } = await theAccount();
  const entries = [await sealedEntry(vault.vaultKey, { serviceName: 'GitHub', username: 'alice', password: 'pw' })];
  const folders = [await sealedFolder(vault.vaultKey, 'Work')];
  return renderWith(vault, { entries, folders }, keys.authKey, override);
}

async function renderWith(
  vault: Awaited<ReturnType<typeof makeUnlockedVault>>['vault'],
  content: Parameters<typeof keyRotationRoutes>[0],
  authKey: string,
  override: (rotation: ReturnType<typeof keyRotationRoutes>) => Record<string, FakeRoute>,
) {
  const rotation = keyRotationRoutes(content, {
    authKey,
    kdf: vault.kdf,
    salt: vault.salt,
    protectedKey: vault.protectedKey,
    keyGeneration: 0,
  });
  const api = fakeApi({ ...signedInRoutes(), ...rotation.routes, ...override(rotation) });
  const keyring = new Keyring();
  keyring.unlock(vault);
  const app = renderApp('/profile', { routes, keyring });
  await screen.findByRole('heading', { name: 'alice' });
  return { api, app, keyring, vault, rotation };
}

async function rotate(app: ReturnType<typeof renderApp>) {
  const card = screen.getByRole('region', { name: 'Encryption key' });
  await app.user.click(within(card).getByRole('button', { name: 'Rotate my encryption key' }));
  const dialog = screen.getByRole('dialog', { name: 'Rotate your encryption key?' });
  await app.user.type(within(dialog).getByLabelText('Master password'), PASSWORD);
  await app.user.click(within(dialog).getByRole('button', { name: 'Rotate' }));
  return card;
}

const NOT_ROTATED = 'Your encryption key was not rotated, and your vault is unchanged.';

describe('Profile: Encryption key', () => {
  beforeEach(() => {
    vi.spyOn(window, 'alert').mockImplementation(() => {});
  });

  it('explains what a rotation does', async () => {
    await renderProfile();
    const card = screen.getByRole('region', { name: 'Encryption key' });
    expect(card).toHaveTextContent('An old copy of the database and your old password open nothing you save from now on.');
    expect(card).toHaveTextContent('Your other devices are signed out');
    expect(card).toHaveTextContent('passkeys that unlock your vault must be set up to unlock it again');
  });

  it('asks the master password, shows the progress, then rotates and puts the new key in this tab', async () => {
    const held = deferred<void>();
    const { app, keyring, vault, rotation, api } = await renderProfile((rotation) => ({
      [route('POST', apiPaths.keyRotation)]: async (request: FakeRequest) => {
        await held.promise;
        return rotation.handlers.start(request);
      },
    }));
    const card = await rotate(app);

    const status = await within(card).findByRole('status');
    await waitFor(() => expect(status).toHaveTextContent('Re-encrypting 2 of 2 items...'));
    const bar = within(status).getByRole('progressbar', { name: 'Key rotation progress' });
    expect(bar).toHaveAttribute('value', '2');
    expect(bar).toHaveAttribute('max', '2');
    expect(within(card).getByRole('button', { name: 'Rotate my encryption key' })).toBeDisabled();

    held.resolve();
    expect(await within(card).findByText('Your encryption key was rotated.')).toBeInTheDocument();
    expect(within(card).getByRole('status')).toHaveTextContent('2 other devices were signed out.');
    expect(api.requests.filter((r) => r.path.endsWith('/commit'))).toHaveLength(1);
    expect(keyring.vault).toMatchObject({ protectedKey: rotation.server.account.protectedKey, keyGeneration: 1 });
    expect(keyring.vault?.vaultKey).not.toBe(vault.vaultKey);
    expect(keyring.vault?.integrityKey).not.toBe(vault.integrityKey);
  });

  it('leaves the old vault open and says so when a part fails midway', async () => {
    let parts = 0;
    const { app, keyring, vault, api } = await renderProfile((rotation) => ({
      // The first part is staged, the second fails.
      [routePrefix('PUT', `${apiPaths.keyRotation}/`)]: (request) =>
        ++parts === 1 ? rotation.handlers.part(request) : { status: 500, body: { message: 'The server could not save that.' } },
    }));
    const card = await rotate(app);
    expect(await within(card).findByRole('alert')).toHaveTextContent(`The server could not save that. ${NOT_ROTATED}`);
    expect(parts).toBe(2);
    expect(api.requests.filter((r) => r.path.endsWith('/commit'))).toHaveLength(0);
    expect(keyring.vault?.vaultKey).toBe(vault.vaultKey);
    expect(keyring.vault?.protectedKey).toBe(vault.protectedKey);
    expect(within(card).getByRole('button', { name: 'Rotate my encryption key' })).toBeEnabled();
  });

  it('leaves the old vault open and says so when the commit is refused', async () => {
    const { app, keyring, vault } = await renderProfile(() => ({
      [routePrefix('POST', `${apiPaths.keyRotation}/`)]: {
        status: 409,
        body: { message: 'Your vault changed while Lockit read it. Try again.' },
      },
    }));
    const card = await rotate(app);
    expect(await within(card).findByRole('alert')).toHaveTextContent(
      `Your vault changed while Lockit read it. Try again. ${NOT_ROTATED}`,
    );
    expect(keyring.vault?.vaultKey).toBe(vault.vaultKey);
    expect(keyring.vault?.keyGeneration).toBeUndefined();
  });

  it('stops before starting when an item does not open, naming how many', async () => {
    const { account: keys, vault } = await theAccount();
    const damaged = await sealedEntry(await importVaultKey(generateVaultKeyBytes()), {
      serviceName: 'X',
      username: 'y',
      password: 'z',
    });
    const { app, api, keyring } = await renderWith(vault, { entries: [damaged] }, keys.authKey, () => ({}));
    const card = await rotate(app);
    expect(await within(card).findByRole('alert')).toHaveTextContent(
      `1 item could not be opened; fix or delete it first. ${NOT_ROTATED}`,
    );
    expect(api.to('POST', apiPaths.keyRotation)).toHaveLength(0);
    expect(keyring.vault?.vaultKey).toBe(vault.vaultKey);
  });

  it('cannot start while the vault is locked in this tab', async () => {
    fakeApi(signedInRoutes());
    renderApp('/profile', { routes, keyring: new Keyring() });
    const card = await screen.findByRole('region', { name: 'Encryption key' });
    const button = within(card).getByRole('button', { name: 'Rotate my encryption key' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription('Unlock your vault in this tab to rotate its key.');
  });

  it('offers a rotation after the master password was changed', async () => {
    const { app } = await renderProfile(() => ({
      [route('PUT', apiPaths.changePassword)]: { status: 200, body: { message: 'Password updated' } },
    }));
    const offer = 'You changed your master password. Rotate your encryption key too?';
    expect(screen.queryByText(offer)).not.toBeInTheDocument();
    await app.user.type(screen.getByLabelText('Current Password'), PASSWORD);
    await app.user.type(screen.getByLabelText('New Password'), 'a whole new master password');
    await app.user.type(screen.getByLabelText('Confirm new password'), 'a whole new master password');
    await app.user.click(screen.getByRole('button', { name: 'Save Password' }));
    await waitFor(() => expect(window.alert).toHaveBeenCalledWith('✅ Password updated successfully'));
    const card = screen.getByRole('region', { name: 'Encryption key' });
    expect(within(card).getByText(offer)).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Rotate my encryption key' })).toBeEnabled();
  });
});
