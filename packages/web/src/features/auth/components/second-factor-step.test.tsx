import { apiPaths, type SecondFactorMethod } from '@lockit/contract';
import { decryptField, encryptField, importVaultKey } from '@lockit/crypto';
import { startAuthentication } from '@simplewebauthn/browser';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeAccountKeys } from '@/testing/crypto-fixtures';
import { fakeApi, route, type FakeRoute } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { advance, installFakeClockWithRealTime } from '@/testing/timers';

vi.mock('@simplewebauthn/browser', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@simplewebauthn/browser')>()),
  browserSupportsWebAuthn: () => true,
  startAuthentication: vi.fn(),
}));

/** Two-step sign-in: the second step of the sign-in page. */
const PASSWORD = 'correct horse battery staple';
const TOKEN = 'A'.repeat(43);
const ASSERTION = {
  id: 'cred-1',
  rawId: 'cred-1',
  type: 'public-key',
  response: { signature: 'sig' },
  clientExtensionResults: {},
};
const WEBAUTHN_OPTIONS = { challenge: 'Y2hhbGxlbmdl', allowCredentials: [{ id: 'cred-1', type: 'public-key' }] };

/** An account with a second factor: login answers "second factor required"; the step answers `complete`. */
async function twoStepAccount(options: {
  methods?: SecondFactorMethod[];
  rememberBrowserDays?: number;
  complete?: FakeRoute;
  extra?: Record<string, FakeRoute>;
}) {
  const account = await makeAccountKeys(PASSWORD);
  let signedIn = false;
  const spec = (extra: Record<string, unknown> = {}) => ({
    status: 200,
    body: {
      message: 'Login successful',
      data: { username: 'alice', email: 'alice@example.com', protectedKey: account.protectedKey, ...extra },
    },
  });
  const api = fakeApi({
    [route('GET', apiPaths.publicConfig)]: {
      status: 200,
      body: { message: 'OK', data: { breachCheckUrl: null, rememberBrowserDays: options.rememberBrowserDays ?? 30 } },
    },
    [route('POST', apiPaths.prelogin)]: { status: 200, body: { message: 'OK', data: { kdf: account.kdf, salt: account.salt } } },
    [route('POST', apiPaths.login)]: {
      status: 200,
      body: {
        message: 'A second step is required.',
        data: {
          secondFactor: {
            token: TOKEN,
            methods: options.methods ?? ['totp', 'recovery'],
            expiresAt: new Date(Date.now() + 5 * 60_000).toISOString(),
          },
        },
      },
    },
    [route('POST', apiPaths.loginSecondFactor)]: (request) => {
      const body = request.body as { method: string; code: string };
      if (body.method === 'totp' && body.code === '123456') return ((signedIn = true), spec());
      if (body.method === 'recovery' && body.code === 'ABCDEFGHIJKLMNOP')
        return ((signedIn = true), spec({ recoveryCodesLeft: 2 }));
      return { status: 401, body: { message: 'That code is not right. Try again.' } };
    },
    [route('POST', apiPaths.loginWebauthnOptions)]: { status: 200, body: { message: 'OK', data: { options: WEBAUTHN_OPTIONS } } },
    [route('POST', apiPaths.loginWebauthn)]: () => ((signedIn = true), spec()),
    [route('POST', apiPaths.verifySession)]: () =>
      signedIn
        ? { status: 200, body: { message: 'Success', data: { username: 'alice' } } }
        : { status: 401, body: { message: 'Please sign in.' } },
    ...(options.complete ? { [route('POST', apiPaths.loginSecondFactor)]: options.complete } : {}),
    ...options.extra,
  });
  return { account, api };
}

async function reachSecondStep() {
  const app = renderApp('/signin');
  await screen.findByRole('heading', { name: 'Sign In' });
  await app.user.type(screen.getByLabelText('Username'), 'alice');
  await app.user.type(screen.getByLabelText('Password'), PASSWORD);
  await app.user.click(screen.getByRole('button', { name: 'Sign In' }));
  await screen.findByRole('heading', { name: 'Two-step sign-in' });
  return app;
}

async function expectUnlockedWith(app: ReturnType<typeof renderApp>, vaultKeyBytes: Uint8Array) {
  await waitFor(() => expect(app.pathname()).toBe('/home'));
  const vault = app.keyring.vault!;
  const id = crypto.randomUUID();
  const reference = await importVaultKey(vaultKeyBytes);
  expect(await decryptField(reference, id, 'password', await encryptField(vault.vaultKey, id, 'password', 'x'))).toBe('x');
}

describe('Two-step sign-in', () => {
  beforeEach(() => {
    installFakeClockWithRealTime();
    vi.mocked(startAuthentication).mockReset();
  });

  it('asks for an authenticator code after the right password, then unlocks the vault with a code that works', async () => {
    const { account, api } = await twoStepAccount({});
    const app = await reachSecondStep();
    expect(app.keyring.vault).toBeNull();

    const field = screen.getByLabelText('Authenticator app code');
    expect(field).toHaveAttribute('inputmode', 'numeric');
    expect(field).toHaveAttribute('autocomplete', 'one-time-code');
    await app.user.type(field, '123 456');
    await app.user.click(screen.getByRole('button', { name: 'Verify' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Login successful');
    await expectUnlockedWith(app, account.vaultKeyBytes);
    expect(api.to('POST', apiPaths.loginSecondFactor)[0]?.body).toEqual({
      token: TOKEN,
      method: 'totp',
      code: '123456',
      remember: false,
    });
    expect(JSON.stringify(api.requests.map((r) => r.body))).not.toContain(PASSWORD);
  });

  it('says a wrong code plainly and stays on the step, with the vault locked', async () => {
    await twoStepAccount({});
    const app = await reachSecondStep();
    await app.user.type(screen.getByLabelText('Authenticator app code'), '000000');
    await app.user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('That code is not right. Try again.');
    expect(screen.getByRole('heading', { name: 'Two-step sign-in' })).toBeInTheDocument();
    expect(app.keyring.vault).toBeNull();
    expect(app.pathname()).toBe('/signin');
  });

  it('refuses a code that is not 6 digits without sending it', async () => {
    const { api } = await twoStepAccount({});
    const app = await reachSecondStep();
    await app.user.type(screen.getByLabelText('Authenticator app code'), '12a45');
    await app.user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter the 6-digit code from your authenticator app.');
    expect(api.to('POST', apiPaths.loginSecondFactor)).toHaveLength(0);
  });

  it('goes back to the password form with the message when the sign-in has expired', async () => {
    await twoStepAccount({ complete: { status: 410, body: { message: 'This sign-in has expired. Sign in again.' } } });
    const app = await reachSecondStep();
    await app.user.type(screen.getByLabelText('Authenticator app code'), '123456');
    await app.user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This sign-in has expired. Sign in again.');
    expect(screen.getByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(app.keyring.vault).toBeNull();
  });

  it('goes back to the password form when the pending sign-in runs out of time', async () => {
    const { api } = await twoStepAccount({});
    await reachSecondStep();
    await advance(5 * 60_000);
    expect(await screen.findByRole('alert')).toHaveTextContent('This sign-in has expired. Sign in again.');
    expect(screen.getByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(api.to('POST', apiPaths.loginSecondFactor)).toHaveLength(0);
  });

  it('Cancel returns to the password form and sends nothing', async () => {
    const { api } = await twoStepAccount({});
    const app = await reachSecondStep();
    await app.user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(api.to('POST', apiPaths.loginSecondFactor)).toHaveLength(0);
  });

  it('after a recovery code, says how many are left and warns when few remain, then opens the vault', async () => {
    const { account, api } = await twoStepAccount({});
    const app = await reachSecondStep();
    await app.user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    await app.user.type(screen.getByLabelText('Recovery code'), 'abcd-efgh-ijkl-mnop');
    await app.user.click(screen.getByRole('button', { name: 'Verify' }));

    const notice = await screen.findByRole('alert');
    expect(notice).toHaveTextContent('Recovery code accepted. You have 2 recovery codes left.');
    expect(notice).toHaveTextContent('Make new ones in Profile');
    expect(api.to('POST', apiPaths.loginSecondFactor)[0]?.body).toMatchObject({ method: 'recovery', code: 'ABCDEFGHIJKLMNOP' });
    await app.user.click(screen.getByRole('button', { name: 'Continue' }));
    await expectUnlockedWith(app, account.vaultKeyBytes);
  });

  it('offers "Remember this browser for N days" from the server config and sends it when ticked', async () => {
    const { api } = await twoStepAccount({ rememberBrowserDays: 14 });
    const app = await reachSecondStep();
    await app.user.click(await screen.findByRole('checkbox', { name: 'Remember this browser for 14 days' }));
    await app.user.type(screen.getByLabelText('Authenticator app code'), '123456');
    await app.user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(app.pathname()).toBe('/home'));
    expect(api.to('POST', apiPaths.loginSecondFactor)[0]?.body).toMatchObject({ remember: true });
  });

  it('hides "Remember this browser" when the operator turned it off', async () => {
    const { api } = await twoStepAccount({ rememberBrowserDays: 0 });
    await reachSecondStep();
    await waitFor(() => expect(api.to('GET', apiPaths.publicConfig)).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.queryByText(/Remember this browser/)).not.toBeInTheDocument();
  });

  it('signs in with a security key: asks the server for a challenge, runs the browser ceremony, and unlocks', async () => {
    vi.mocked(startAuthentication).mockResolvedValue(ASSERTION as unknown as Awaited<ReturnType<typeof startAuthentication>>);
    const { account, api } = await twoStepAccount({ methods: ['webauthn', 'recovery'] });
    const app = await reachSecondStep();
    expect(screen.queryByLabelText('Authenticator app code')).not.toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Use your security key' }));

    await expectUnlockedWith(app, account.vaultKeyBytes);
    expect(api.to('POST', apiPaths.loginWebauthnOptions)[0]?.body).toEqual({ token: TOKEN });
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: WEBAUTHN_OPTIONS });
    expect(api.to('POST', apiPaths.loginWebauthn)[0]?.body).toEqual({ token: TOKEN, response: ASSERTION, remember: false });
  });

  it('says so when the security key request is cancelled, and sends no answer', async () => {
    vi.mocked(startAuthentication).mockRejectedValue(new DOMException('cancelled', 'NotAllowedError'));
    const { api } = await twoStepAccount({ methods: ['webauthn', 'totp', 'recovery'] });
    const app = await reachSecondStep();
    await app.user.click(screen.getByRole('button', { name: 'Use your security key' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The security key request was cancelled or timed out.');
    expect(api.to('POST', apiPaths.loginWebauthn)).toHaveLength(0);
    expect(app.keyring.vault).toBeNull();
  });

  it('logs out when the vault key the second step returned fails verification', async () => {
    const other = await makeAccountKeys('another password');
    const { api } = await twoStepAccount({
      complete: {
        status: 200,
        body: {
          message: 'Login successful',
          data: { username: 'alice', email: 'a@example.com', protectedKey: other.protectedKey },
        },
      },
      extra: { [route('POST', apiPaths.logout)]: { status: 200, body: { message: 'Logged out' } } },
    });
    const app = await reachSecondStep();
    await app.user.type(screen.getByLabelText('Authenticator app code'), '123456');
    await app.user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/could not unlock your vault/);
    await waitFor(() => expect(api.to('POST', apiPaths.logout)).toHaveLength(1));
    expect(app.keyring.vault).toBeNull();
  });
});
