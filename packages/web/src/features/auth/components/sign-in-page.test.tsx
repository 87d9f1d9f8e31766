import { apiPaths } from '@lockit/contract';
import { decryptField, encryptField, importVaultKey } from '@lockit/crypto';
import { screen, waitFor, within } from '@testing-library/react';
import { onlineManager } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { checkRememberedKdfParams, rememberKdfParams } from '@/testing/device-memory-by-name';
import { makeAccountKeys, FLOOR_KDF } from '@/testing/crypto-fixtures';
import { fakeApi, route, type FakeRoute } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { advance, installFakeClockWithRealTime } from '@/testing/timers';

const PASSWORD = 'correct horse battery staple';

/** The server side of one verified account whose master password is PASSWORD. */
async function accountRoutes(overrides: Record<string, FakeRoute> = {}) {
  const account = await makeAccountKeys(PASSWORD);
  let signedIn = false;
  const routes: Record<string, FakeRoute> = {
    [route('POST', apiPaths.prelogin)]: { status: 200, body: { message: 'OK', data: { kdf: account.kdf, salt: account.salt } } },
    [route('POST', apiPaths.login)]: (request) => {
      const body = request.body as { username: string; password: string };
      if (body.username !== 'alice' || body.password !== account.authKey) {
        return { status: 401, body: { message: 'Invalid username or password.' } };
      }
      signedIn = true;
      return {
        status: 200,
        body: {
          message: 'Login successful',
          data: { username: 'alice', email: 'alice@example.com', protectedKey: account.protectedKey },
        },
      };
    },
    [route('POST', apiPaths.verifySession)]: () =>
      signedIn
        ? { status: 200, body: { message: 'Success', data: { username: 'alice' } } }
        : { status: 401, body: { message: 'Please sign in.' } },
    [route('POST', apiPaths.logout)]: () => {
      signedIn = false;
      return { status: 200, body: { message: 'Logged out' } };
    },
    ...overrides,
  };
  return { account, routes };
}

async function renderSignIn() {
  const app = renderApp('/signin');
  await screen.findByRole('heading', { name: 'Sign In' });
  return app;
}

async function submit(app: Awaited<ReturnType<typeof renderSignIn>>, username = 'alice', password = PASSWORD) {
  await app.user.type(screen.getByLabelText('Username'), username);
  await app.user.type(screen.getByLabelText('Password'), password);
  await app.user.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('Sign-in page', () => {
  beforeEach(() => {
    installFakeClockWithRealTime();
  });

  it('has required Username and Password fields, a show/hide toggle and a link to sign up', async () => {
    fakeApi();
    const app = await renderSignIn();
    expect(screen.getByLabelText('Username')).toBeRequired();
    expect(screen.getByLabelText('Password')).toBeRequired();
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    await app.user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'text');
    expect(screen.getByRole('link', { name: 'Sign up here' })).toHaveAttribute('href', '/signup');
    expect(screen.queryByRole('region', { name: 'Lockit needs a secure connection' })).not.toBeInTheDocument();
  });

  it('signs in: unlocks the vault key, shows the server message in green for 2 s and goes to /home', async () => {
    const { account, routes } = await accountRoutes();
    const api = fakeApi(routes);
    const app = await renderSignIn();
    await submit(app);

    const toast = await screen.findByRole('status');
    expect(toast).toHaveTextContent('Login successful');
    expect(toast).toHaveAttribute('data-kind', 'success');
    // The router renders a navigation as a transition, just after the toast.
    await waitFor(() => expect(app.pathname()).toBe('/home'));
    // Timing first: every real millisecond spent below also moves the clock.
    await advance(1500);
    expect(screen.getByText('Login successful')).toBeInTheDocument();
    await advance(600);
    expect(screen.queryByText('Login successful')).not.toBeInTheDocument();

    // The vault key in the keyring is the account's: what one encrypts, the other decrypts.
    const vault = app.keyring.vault;
    expect(vault).toMatchObject({ username: 'alice', kdf: FLOOR_KDF, salt: account.salt, protectedKey: account.protectedKey });
    const reference = await importVaultKey(account.vaultKeyBytes);
    const entryId = crypto.randomUUID();
    expect(
      await decryptField(reference, entryId, 'password', await encryptField(vault!.vaultKey, entryId, 'password', 'x')),
    ).toBe('x');

    // The master password itself never travelled.
    expect(JSON.stringify(api.requests.map((r) => r.body))).not.toContain(PASSWORD);
    expect(api.to('POST', apiPaths.prelogin)[0]?.body).toEqual({ username: 'alice' });

    // The header learns about the new session.
    await waitFor(() =>
      expect(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Profile' })).toBeInTheDocument(),
    );

    // The vault's list (ciphertext) is fetched once, after the login, for the vault to open on.
    expect(api.to('GET', apiPaths.listEntries)).toHaveLength(1);
    const order = api.requests.map((r) => `${r.method} ${r.path}`);
    expect(order.indexOf(`GET ${apiPaths.listEntries}`)).toBeGreaterThan(order.indexOf(`POST ${apiPaths.login}`));
  });

  it('signs in from a browser that had no session: the hint the server sets lets the header check it', async () => {
    const { routes } = await accountRoutes();
    const api = fakeApi(routes, { sessionHint: false });
    const app = await renderSignIn();
    expect(api.to('POST', apiPaths.verifySession)).toHaveLength(0);
    await submit(app);
    await waitFor(() =>
      expect(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Profile' })).toBeInTheDocument(),
    );
    expect(api.to('POST', apiPaths.verifySession).length).toBeGreaterThanOrEqual(1);
  });

  it('shows the server message in a red toast for 2 s on a failed sign-in and stays', async () => {
    const { routes } = await accountRoutes();
    fakeApi(routes);
    const app = await renderSignIn();
    await submit(app, 'alice', 'wrong password');

    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Invalid username or password.');
    expect(app.pathname()).toBe('/signin');
    expect(app.keyring.vault).toBeNull();
    await advance(1500);
    expect(screen.getByRole('alert')).toBeInTheDocument();
    await advance(600);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says "Something went wrong. Please try again later." when the server does not answer', async () => {
    fakeApi({ [route('POST', apiPaths.prelogin)]: 'network-error' });
    const app = await renderSignIn();
    await submit(app);
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong. Please try again later.');
    await advance(2100);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says the browser is offline at once, instead of waiting for the network, and stops the spinner', async () => {
    // As a browser that lost its network: navigator.onLine false, and the 'offline' event React
    // Query follows (without networkMode 'always' it would pause the call there, unsent).
    const { routes } = await accountRoutes({ [route('POST', apiPaths.prelogin)]: 'network-error' });
    const api = fakeApi(routes);
    const app = await renderSignIn();
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    window.dispatchEvent(new Event('offline'));
    // Set directly: by the time this runs the app is unmounted and React Query no longer
    // listens for the 'online' event, so an event would leave it offline for later files.
    onTestFinished(() => onlineManager.setOnline(true));
    expect(onlineManager.isOnline()).toBe(false);
    await submit(app);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You are offline. Please sign in again when your network is back.',
    );
    expect(screen.queryByText('Unlocking your vault…')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
    expect(api.to('POST', apiPaths.prelogin)).toHaveLength(1);
    expect(api.to('POST', apiPaths.login)).toHaveLength(0);
    await advance(2000);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    online.mockRestore();
  });

  it('says the same when login itself gets no answer', async () => {
    const { routes } = await accountRoutes({ [route('POST', apiPaths.login)]: 'network-error' });
    fakeApi(routes);
    const app = await renderSignIn();
    await submit(app);
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong. Please try again later.');
  });

  it('refuses KDF params below the floor, shows why, and sends nothing further', async () => {
    const { account, routes } = await accountRoutes();
    const api = fakeApi({
      ...routes,
      [route('POST', apiPaths.prelogin)]: {
        status: 200,
        body: { message: 'OK', data: { kdf: { ...account.kdf, memoryKiB: 1024, iterations: 1 }, salt: account.salt } },
      },
    });
    const app = await renderSignIn();
    await submit(app);

    expect(await screen.findByRole('alert')).toHaveTextContent(/weaker than Lockit allows/);
    expect(api.to('POST', apiPaths.login)).toHaveLength(0);
    const afterPrelogin = api.requests.slice(api.requests.findIndex((r) => r.path === apiPaths.prelogin) + 1);
    expect(afterPrelogin.filter((r) => r.path !== apiPaths.verifySession && r.path !== apiPaths.refreshToken)).toEqual([]);
    expect(app.pathname()).toBe('/signin');
  });

  it('refuses an unusable salt and sends no login', async () => {
    const { account, routes } = await accountRoutes();
    const api = fakeApi({
      ...routes,
      [route('POST', apiPaths.prelogin)]: { status: 200, body: { message: 'OK', data: { kdf: account.kdf, salt: 'c2hvcnQ' } } },
    });
    const app = await renderSignIn();
    await submit(app);
    expect(await screen.findByRole('alert')).toHaveTextContent(/salt/);
    expect(api.to('POST', apiPaths.login)).toHaveLength(0);
  });

  it('logs out and keeps the vault locked when the server key data fails verification', async () => {
    const other = await makeAccountKeys('another password');
    const { routes } = await accountRoutes();
    const api = fakeApi({
      ...routes,
      [route('POST', apiPaths.login)]: {
        status: 200,
        body: {
          message: 'Login successful',
          data: { username: 'alice', email: 'alice@example.com', protectedKey: other.protectedKey },
        },
      },
    });
    const app = await renderSignIn();
    await submit(app);

    expect(await screen.findByRole('alert')).toHaveTextContent(
      "Lockit could not unlock your vault: the server's key data failed verification.",
    );
    await waitFor(() => expect(api.to('POST', apiPaths.logout)).toHaveLength(1));
    expect(app.keyring.vault).toBeNull();
    expect(app.pathname()).toBe('/signin');
    expect(screen.queryByText('Login successful')).not.toBeInTheDocument();
  });

  it('refuses to unlock when the server answers prelogin with other params than the vault key was wrapped with', async () => {
    // Both within policy, so the KDF runs; the wrap's associated data still binds the originals.
    const { account, routes } = await accountRoutes();
    const swapped = { ...account.kdf, iterations: account.kdf.iterations + 1 };
    const api = fakeApi({
      ...routes,
      [route('POST', apiPaths.prelogin)]: { status: 200, body: { message: 'OK', data: { kdf: swapped, salt: account.salt } } },
      [route('POST', apiPaths.login)]: {
        status: 200,
        body: {
          message: 'Login successful',
          data: { username: 'alice', email: 'alice@example.com', protectedKey: account.protectedKey },
        },
      },
    });
    const app = await renderSignIn();
    await submit(app);
    expect(await screen.findByRole('alert')).toHaveTextContent(/could not unlock your vault/);
    await waitFor(() => expect(api.to('POST', apiPaths.logout)).toHaveLength(1));
    expect(app.keyring.vault).toBeNull();
  });

  it('refuses params weaker than this browser already used for the account (a rolled-back password change), and sends no login', async () => {
    await rememberKdfParams('alice', { ...FLOOR_KDF, iterations: 4, parallelism: 4 });
    const { routes } = await accountRoutes();
    const api = fakeApi(routes);
    const app = await renderSignIn();
    await submit(app);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'The server asked for key-derivation settings weaker than the ones this browser already used for this account (passes 3, this browser used 4; lanes 1, this browser used 4). Sign-in was stopped to protect your password.',
    );
    expect(api.to('POST', apiPaths.login)).toHaveLength(0);
    expect(app.keyring.vault).toBeNull();
    expect(app.pathname()).toBe('/signin');
    // A security refusal stays long enough to be read.
    await advance(7_000);
    expect(screen.getByRole('alert')).toBe(alert);
  });

  it('remembers the params once the vault key unwrapped under them, so this browser refuses weaker ones later', async () => {
    const { account, routes } = await accountRoutes();
    fakeApi(routes);
    const app = await renderSignIn();
    await submit(app);
    await waitFor(() => expect(app.pathname()).toBe('/home'));
    const weaker = { ...account.kdf, memoryKiB: account.kdf.memoryKiB - 1024 };
    await expect(checkRememberedKdfParams('ALICE', weaker)).rejects.toThrow(/this browser already used/);
  });

  it('does not remember params whose vault key failed to unwrap', async () => {
    const { account, routes } = await accountRoutes();
    const stronger = { ...account.kdf, iterations: account.kdf.iterations + 1 };
    fakeApi({
      ...routes,
      [route('POST', apiPaths.prelogin)]: { status: 200, body: { message: 'OK', data: { kdf: stronger, salt: account.salt } } },
      [route('POST', apiPaths.login)]: {
        status: 200,
        body: {
          message: 'Login successful',
          data: { username: 'alice', email: 'alice@example.com', protectedKey: account.protectedKey },
        },
      },
    });
    const app = await renderSignIn();
    await submit(app);
    expect(await screen.findByRole('alert')).toHaveTextContent(/could not unlock your vault/);
    expect(app.keyring.vault).toBeNull();
    // Had the server's `stronger` been remembered, the account's real params would now be refused.
    await expect(checkRememberedKdfParams('alice', account.kdf)).resolves.toBeUndefined();
  });

  it('opens "Verify Your Email" for an unverified account', async () => {
    const { routes } = await accountRoutes({
      [route('POST', apiPaths.login)]: {
        status: 403,
        body: {
          message: 'Please verify your email before signing in.',
          data: { username: 'alice', email: 'alice@example.com', unverified: true },
        },
      },
    });
    fakeApi(routes);
    const app = await renderSignIn();
    await submit(app);

    const dialog = await screen.findByRole('dialog', { name: 'Verify Your Email' });
    expect(dialog).toHaveTextContent('alice@example.com');
    expect(screen.getByRole('alert')).toHaveTextContent('Please verify your email before signing in.');
    expect(within(dialog).getByRole('button', { name: 'Resend Code' })).toBeInTheDocument();
  });

  it('explains the secure-context requirement on plain HTTP and disables sign-in', async () => {
    fakeApi();
    Object.defineProperty(window, 'isSecureContext', { value: false, configurable: true });
    await renderSignIn();
    expect(screen.getByRole('region', { name: 'Lockit needs a secure connection' })).toHaveTextContent(/HTTPS or on localhost/);
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeDisabled();
  });
});
