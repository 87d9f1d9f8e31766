import { apiPaths } from '@lockit/contract';
import { passkeyPrfInput, passkeyPrfInputBase64Url, toBase64Url, unwrapVaultKeyWithPasskey } from '@lockit/crypto';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeAccountKeys } from '@/testing/crypto-fixtures';
import { fakeApi, route, signedInRoutes, type FakeRequest } from '@/testing/fake-api';
import { installFakeAuthenticator } from '@/testing/fake-authenticator';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { installFakeClockWithRealTime } from '@/testing/timers';
import { NO_PRF_TEXT, removedText } from './passkeys-section';
import { ProfilePage } from './profile-page';

/** Profile's "Passkeys and security keys". */
const routes = pageRoutes({ '/profile': <ProfilePage /> });
const PASSWORD = 'correct horse battery staple';
const USER_ID = '0b7a3f52-6c1e-4d2a-9f1b-3c5d7e9f1a2b';
const CHALLENGE_ID = '5b0e6bd4-0c7b-4d6f-a3f4-0d1c0e3f9a11';
const NEW_ID = 'c7d1a3c4-6f4e-4c5b-9c2d-4a0b8e6f1d22';

const listed = [
  {
    id: 'a1c2e3f4-1111-4222-8333-944455566677',
    name: 'Phone',
    createdAt: '2026-11-20T08:00:00.000Z',
    lastUsedAt: null,
    canUnlock: true,
    backedUp: true,
  },
  {
    id: 'b1c2e3f4-1111-4222-8333-944455566677',
    name: 'YubiKey',
    createdAt: '2026-11-21T08:00:00.000Z',
    lastUsedAt: '2026-11-22T08:00:00.000Z',
    canUnlock: false,
    backedUp: false,
  },
];

/** The server as the passkey calls see it; registration keeps the credential id it was sent. */
async function passkeyApi(credentials = listed) {
  const account = await makeAccountKeys(PASSWORD);
  return {
    account,
    api: fakeApi({
      ...signedInRoutes(),
      [route('GET', apiPaths.keyMaterial)]: {
        status: 200,
        body: { message: 'OK', data: { kdf: account.kdf, salt: account.salt, protectedKey: account.protectedKey } },
      },
      [route('GET', apiPaths.twoFactor)]: {
        status: 200,
        body: { message: 'OK', data: { totp: false, recoveryCodesLeft: 0, credentials, rememberBrowserDays: 30 } },
      },
      [route('POST', apiPaths.webauthnRegisterOptions)]: (request: FakeRequest) => {
        if ((request.body as { password: string }).password !== account.authKey)
          return { status: 401, body: { message: 'Wrong' } };
        return {
          status: 200,
          body: {
            message: 'OK',
            data: {
              challengeId: CHALLENGE_ID,
              options: {
                challenge: toBase64Url(new Uint8Array(32).fill(7)),
                rp: { id: 'localhost', name: 'Lockit' },
                user: { id: toBase64Url(new TextEncoder().encode(USER_ID)), name: 'alice', displayName: 'Alice' },
                pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
              },
            },
          },
        };
      },
      [route('POST', apiPaths.webauthnRegister)]: (request: FakeRequest) => {
        const body = request.body as { name: string };
        return {
          status: 200,
          body: {
            message: 'Added',
            data: {
              credential: {
                id: NEW_ID,
                name: body.name,
                createdAt: new Date().toISOString(),
                lastUsedAt: null,
                canUnlock: false,
                backedUp: false,
              },
            },
          },
        };
      },
      [route('PUT', apiPaths.webauthnUnlockKey(NEW_ID))]: { status: 200, body: { message: 'Saved' } },
    }),
  };
}

async function addPasskey(app: ReturnType<typeof renderApp>) {
  const section = await screen.findByRole('region', { name: 'Passkeys and security keys' });
  await app.user.click(within(section).getByRole('button', { name: 'Add a passkey' }));
  const dialog = await screen.findByRole('dialog', { name: 'Add a passkey' });
  await app.user.clear(within(dialog).getByLabelText('Name'));
  await app.user.type(within(dialog).getByLabelText('Name'), 'Laptop');
  await app.user.type(within(dialog).getByLabelText('Master Password'), PASSWORD);
  await app.user.click(within(dialog).getByRole('button', { name: 'Add' }));
  return section;
}

describe('Passkeys and security keys', () => {
  it('lists each credential with its name, dates, and the unlock and synced badges', async () => {
    installFakeClockWithRealTime();
    await passkeyApi();
    renderApp('/profile', { routes });
    const section = await screen.findByRole('region', { name: 'Passkeys and security keys' });
    const [phone, yubikey] = within(await within(section).findByRole('list')).getAllByRole('listitem');
    expect(phone).toHaveTextContent('Phone');
    expect(phone).toHaveTextContent('Signs in and unlocks');
    expect(phone).toHaveTextContent('Synced');
    expect(phone).toHaveTextContent('Never used');
    expect(yubikey).toHaveTextContent('YubiKey');
    expect(yubikey).not.toHaveTextContent('Signs in and unlocks');
    expect(yubikey).not.toHaveTextContent('Synced');
    expect(yubikey).toHaveTextContent('Last used');
    expect(within(yubikey!).getByRole('button', { name: 'Remove YubiKey' })).toBeInTheDocument();
  });

  it('adds a passkey: the vault key, wrapped under its PRF output, is PUT and the output never sent', async () => {
    installFakeClockWithRealTime();
    const authenticator = installFakeAuthenticator();
    const { account, api } = await passkeyApi();
    const app = renderApp('/profile', { routes });
    const section = await addPasskey(app);

    expect(await within(section).findByRole('status')).toHaveTextContent(
      'Passkey added: it signs you in and unlocks your vault.',
    );
    const [put] = api.to('PUT', apiPaths.webauthnUnlockKey(NEW_ID));
    const body = put!.body as { unlockKey: string; unlockSalt: string };
    expect(body.unlockSalt).toBe(await passkeyPrfInputBase64Url());
    const credentialId = authenticator.credentials[0]!;
    const prf = await authenticator.prfOutput(credentialId, await passkeyPrfInput());
    expect(await unwrapVaultKeyWithPasskey(body.unlockKey, prf, { userId: USER_ID, credentialId })).toEqual(
      account.vaultKeyBytes,
    );

    const [register] = api.to('POST', apiPaths.webauthnRegister);
    expect(register!.body).toMatchObject({ challengeId: CHALLENGE_ID, name: 'Laptop', response: { rawId: credentialId } });
    expect(JSON.stringify(register!.body)).not.toContain('results');
    expect(api.to('POST', apiPaths.webauthnRegisterOptions)[0]!.body).toEqual({ password: account.authKey, passkey: true });
  });

  it('says plainly that a passkey without PRF cannot unlock, and stores no unlock key', async () => {
    installFakeClockWithRealTime();
    installFakeAuthenticator({ prf: false });
    const { api } = await passkeyApi();
    const app = renderApp('/profile', { routes });
    const section = await addPasskey(app);

    expect(await within(section).findByRole('alert')).toHaveTextContent(NO_PRF_TEXT);
    expect(api.to('POST', apiPaths.webauthnRegister)).toHaveLength(1);
    expect(api.requests.filter((r) => r.method === 'PUT')).toEqual([]);
  });

  it('shows the recovery codes that come with the account’s first security key, once', async () => {
    installFakeClockWithRealTime();
    installFakeAuthenticator({ prf: false });
    const { api } = await passkeyApi([]);
    const codes = Array.from({ length: 10 }, (_, index) => `ABCD-EFG${index}`);
    api.set(route('POST', apiPaths.webauthnRegister), {
      status: 200,
      body: {
        message: 'Added',
        data: {
          credential: {
            id: NEW_ID,
            name: 'Key',
            createdAt: new Date().toISOString(),
            lastUsedAt: null,
            canUnlock: false,
            backedUp: false,
          },
          recoveryCodes: codes,
        },
      },
    });
    const app = renderApp('/profile', { routes });
    const section = await screen.findByRole('region', { name: 'Passkeys and security keys' });
    await app.user.click(within(section).getByRole('button', { name: 'Add a security key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a security key' });
    await app.user.type(within(dialog).getByLabelText('Master Password'), PASSWORD);
    await app.user.click(within(dialog).getByRole('button', { name: 'Add' }));

    const shown = await screen.findByRole('dialog', { name: 'Your recovery codes' });
    const items = within(within(shown).getByRole('list', { name: 'Recovery codes' })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(codes);
    expect(within(section).getByRole('status')).toHaveTextContent('Security key added: it is asked as a second step at sign-in.');
    await app.user.click(within(shown).getByRole('button', { name: 'I have saved them' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Your recovery codes' })).not.toBeInTheDocument());
  });

  it('refuses a wrong master password before anything is sent or created', async () => {
    installFakeClockWithRealTime();
    const authenticator = installFakeAuthenticator();
    const { api } = await passkeyApi();
    const app = renderApp('/profile', { routes });
    const section = await screen.findByRole('region', { name: 'Passkeys and security keys' });
    await app.user.click(within(section).getByRole('button', { name: 'Add a passkey' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a passkey' });
    await app.user.type(within(dialog).getByLabelText('Master Password'), 'not the password');
    await app.user.click(within(dialog).getByRole('button', { name: 'Add' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Current password is incorrect.');
    expect(api.to('POST', apiPaths.webauthnRegisterOptions)).toEqual([]);
    expect(authenticator.credentials).toEqual([]);
  });

  it('says only "Removed" for a security key, which never held a copy of the vault key', () => {
    expect(removedText(listed[1]!)).toBe('Removed YubiKey.');
  });

  it('removes a credential with the authKey of the master password', async () => {
    installFakeClockWithRealTime();
    const { account, api } = await passkeyApi();
    api.set(route('POST', apiPaths.webauthnRemove(listed[0]!.id)), { status: 200, body: { message: 'Removed' } });
    const app = renderApp('/profile', { routes });
    const section = await screen.findByRole('region', { name: 'Passkeys and security keys' });
    await app.user.click(await within(section).findByRole('button', { name: 'Remove Phone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Phone?' });
    await app.user.type(within(dialog).getByLabelText('Master Password'), PASSWORD);
    await app.user.click(within(dialog).getByRole('button', { name: 'Remove' }));

    // Phone could unlock: the person is pointed to a rotation, which makes any kept copy of the key useless.
    expect(await within(section).findByRole('status')).toHaveTextContent(
      'Removed Phone. It could unlock your vault: to be sure no copy of your vault key made for it still opens anything, rotate your encryption key (Encryption key, below).',
    );
    await waitFor(() => expect(api.to('POST', apiPaths.webauthnRemove(listed[0]!.id))).toHaveLength(1));
    expect(api.to('POST', apiPaths.webauthnRemove(listed[0]!.id))[0]!.body).toEqual({ password: account.authKey });
  });
});
