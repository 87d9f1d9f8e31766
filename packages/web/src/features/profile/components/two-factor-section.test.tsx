import { apiPaths } from '@lockit/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Keyring } from '@/lib/keyring';
import { makeUnlockedVault } from '@/testing/crypto-fixtures';
import { fakeApi, route, signedInRoutes, type FakeRoute } from '@/testing/fake-api';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { installFakeClockWithRealTime } from '@/testing/timers';
import { ProfilePage } from './profile-page';

/** Profile's "Two-step sign-in". */
const routes = pageRoutes({ '/profile': <ProfilePage /> });
const PASSWORD = 'correct horse battery staple';
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const CODES = Array.from({ length: 10 }, (_, index) => `AAAA-BBBB-CCCC-DD${String.fromCharCode(65 + index)}2`);

/** The server's two-factor calls, with a status that follows what they change. */
async function twoFactorApi(start: { totp: boolean; recoveryCodesLeft: number }, extra: Record<string, FakeRoute> = {}) {
  const { account, vault } = await makeUnlockedVault('alice', PASSWORD);
  const keyring = new Keyring();
  keyring.unlock(vault);
  const state = { ...start };
  const reauthed = (request: { body: unknown }) => (request.body as { password?: string }).password === account.authKey;
  const refused = { status: 401, body: { message: 'Your master password is not correct.' } };
  const api = fakeApi({
    ...signedInRoutes(),
    [route('GET', apiPaths.twoFactor)]: () => ({
      status: 200,
      body: { message: 'OK', data: { ...state, credentials: [], rememberBrowserDays: 30 } },
    }),
    [route('POST', apiPaths.totpSetup)]: (request) =>
      reauthed(request)
        ? {
            status: 200,
            body: { message: 'OK', data: { secret: SECRET, uri: `otpauth://totp/Lockit:alice?secret=${SECRET}&issuer=Lockit` } },
          }
        : refused,
    [route('POST', apiPaths.totpConfirm)]: (request) => {
      if ((request.body as { code: string }).code !== '123456')
        return { status: 400, body: { message: 'That code is not right.' } };
      state.totp = true;
      state.recoveryCodesLeft = 10;
      return { status: 200, body: { message: 'On', data: { recoveryCodes: CODES } } };
    },
    [route('POST', apiPaths.totpDisable)]: (request) => {
      if (!reauthed(request)) return refused;
      state.totp = false;
      return { status: 200, body: { message: 'Off' } };
    },
    [route('POST', apiPaths.recoveryCodes)]: (request) => {
      if (!reauthed(request)) return refused;
      state.recoveryCodesLeft = 10;
      return { status: 200, body: { message: 'New codes', data: { recoveryCodes: CODES } } };
    },
    [route('POST', apiPaths.forgetBrowsers)]: { status: 200, body: { message: 'Forgotten' } },
    ...extra,
  });
  const app = renderApp('/profile', { routes, keyring });
  const section = await screen.findByRole('region', { name: 'Two-step sign-in' });
  return { api, app, section, account };
}

async function enterMasterPassword(app: ReturnType<typeof renderApp>, dialogName: string, password: string, confirm: string) {
  const dialog = await screen.findByRole('dialog', { name: dialogName });
  await app.user.type(within(dialog).getByLabelText('Master password'), password);
  await app.user.click(within(dialog).getByRole('button', { name: confirm }));
  return dialog;
}

describe('Two-step sign-in in Profile', () => {
  it('enrols an authenticator app: password, QR code and grouped key, a code, then the recovery codes once', async () => {
    installFakeClockWithRealTime();
    const { api, app, section, account } = await twoFactorApi({ totp: false, recoveryCodesLeft: 0 });
    expect(await within(section).findByText('Off')).toBeInTheDocument();

    await app.user.click(within(section).getByRole('button', { name: 'Set up an authenticator app' }));
    await enterMasterPassword(app, 'Set up an authenticator app', PASSWORD, 'Continue');
    // Only the authKey derived from the password travelled.
    await waitFor(() => expect(api.to('POST', apiPaths.totpSetup)[0]?.body).toEqual({ password: account.authKey }));

    const qr = await screen.findByRole('img', { name: 'QR code to scan with your authenticator app' });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    const enrol = screen.getByRole('dialog', { name: 'Set up an authenticator app' });
    expect(within(enrol).getByLabelText('Setup key')).toHaveTextContent('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    expect(within(enrol).getByRole('button', { name: 'Copy key' })).toBeInTheDocument();

    await app.user.type(within(enrol).getByLabelText('Code from the app'), '111111');
    await app.user.click(within(enrol).getByRole('button', { name: 'Turn on' }));
    expect(await within(enrol).findByRole('alert')).toHaveTextContent('That code is not right.');

    await app.user.clear(within(enrol).getByLabelText('Code from the app'));
    await app.user.type(within(enrol).getByLabelText('Code from the app'), '123456');
    await app.user.click(within(enrol).getByRole('button', { name: 'Turn on' }));

    const codes = await screen.findByRole('dialog', { name: 'Your recovery codes' });
    expect(within(within(codes).getByRole('list', { name: 'Recovery codes' })).getAllByRole('listitem')).toHaveLength(10);
    expect(codes).toHaveTextContent(CODES[0]!);
    expect(within(codes).getByRole('button', { name: 'Copy all' })).toBeInTheDocument();
    expect(within(codes).getByRole('button', { name: 'Download as .txt' })).toBeInTheDocument();
    await app.user.click(within(codes).getByRole('button', { name: 'I have saved them' }));

    // Shown once: gone for good, and the status follows.
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByText(CODES[0]!)).not.toBeInTheDocument();
    expect(await within(section).findByText('On')).toBeInTheDocument();
    expect(section).toHaveTextContent('Recovery codes left: 10');
    expect(within(section).getByRole('status')).toHaveTextContent('Two-step sign-in with your authenticator app is on.');
  });

  it('turning the app off asks for the master password, and a wrong one sends nothing', async () => {
    installFakeClockWithRealTime();
    const { api, app, section, account } = await twoFactorApi({ totp: true, recoveryCodesLeft: 8 });
    await app.user.click(await within(section).findByRole('button', { name: 'Turn off the authenticator app' }));

    const dialog = await enterMasterPassword(app, 'Turn off the authenticator app?', 'not my password', 'Turn off');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('That master password is not correct.');
    expect(api.to('POST', apiPaths.totpDisable)).toHaveLength(0);

    await app.user.clear(within(dialog).getByLabelText('Master password'));
    await app.user.type(within(dialog).getByLabelText('Master password'), PASSWORD);
    await app.user.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(await within(section).findByRole('status')).toHaveTextContent('The authenticator app is off.');
    expect(api.to('POST', apiPaths.totpDisable)[0]?.body).toEqual({ password: account.authKey });
    expect(await within(section).findByRole('button', { name: 'Set up an authenticator app' })).toBeInTheDocument();
  });

  it('makes new recovery codes after the master password and shows them once; warns when few are left', async () => {
    installFakeClockWithRealTime();
    const { api, app, section } = await twoFactorApi({ totp: true, recoveryCodesLeft: 2 });
    expect(await within(section).findByText(/make new ones before you run out/)).toBeInTheDocument();

    await app.user.click(within(section).getByRole('button', { name: 'Make new recovery codes' }));
    await enterMasterPassword(app, 'Make new recovery codes?', PASSWORD, 'Make new codes');
    const codes = await screen.findByRole('dialog', { name: 'Your recovery codes' });
    expect(codes).toHaveTextContent(CODES[9]!);
    expect(api.to('POST', apiPaths.recoveryCodes)).toHaveLength(1);
    await app.user.click(within(codes).getByRole('button', { name: 'I have saved them' }));
    await waitFor(() => expect(section).toHaveTextContent('Recovery codes left: 10'));
  });

  it('forgets remembered browsers', async () => {
    installFakeClockWithRealTime();
    const { api, app, section } = await twoFactorApi({ totp: true, recoveryCodesLeft: 10 });
    await app.user.click(await within(section).findByRole('button', { name: 'Forget remembered browsers' }));
    expect(await within(section).findByRole('status')).toHaveTextContent(
      'Every remembered browser will ask for the second step again.',
    );
    expect(api.to('POST', apiPaths.forgetBrowsers)).toHaveLength(1);
  });

  it('offers neither recovery codes nor forgetting browsers without a factor', async () => {
    installFakeClockWithRealTime();
    const { section } = await twoFactorApi({ totp: false, recoveryCodesLeft: 0 });
    await within(section).findByRole('button', { name: 'Set up an authenticator app' });
    expect(within(section).queryByRole('button', { name: 'Make new recovery codes' })).not.toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: 'Forget remembered browsers' })).not.toBeInTheDocument();
    expect(section).not.toHaveTextContent('Recovery codes left');
  });
});
