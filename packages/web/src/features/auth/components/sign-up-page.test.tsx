import { apiPaths } from '@lockit/contract';
import { DEFAULT_KDF_PARAMS, deriveKeysFromPassword, unwrapVaultKey, type KdfParams } from '@lockit/crypto';
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProfilePage } from '@/features/profile/components/profile-page';
import { checkRememberedKeyGeneration } from '@/testing/device-memory-by-name';
import { checkRememberedKdfParams } from '@/testing/device-memory-by-name';
import { FLOOR_KDF } from '@/testing/crypto-fixtures';
import { deferred } from '@/testing/deferred';
import { fakeApi, route, signedInRoutes, type FakeAnswer } from '@/testing/fake-api';
import { pageRoutes } from '@/testing/page-routes';
import { startPwnedStandIn, type PwnedStandIn } from '@lockit/test-support/pwned-stand-in';
import { renderApp } from '@/testing/render-app';
import { advance, installFakeClock, installFakeClockWithRealTime } from '@/testing/timers';
import { sha1Hex } from '@/lib/password-strength/breach-check';
import { SignUpPage } from './sign-up-page';

const PASSWORD = 'a long master password';
const routes = pageRoutes({ '/signup': <SignUpPage />, '/profile': <ProfilePage />, '/signin': <h1>Sign-in page</h1> });

interface CreateBody {
  fullname: string;
  username: string;
  email: string;
  password: string;
  kdf: KdfParams;
  salt: string;
  protectedKey: string;
  keyGeneration: number;
}

const created: FakeAnswer = {
  status: 201,
  body: { message: 'Account created. Check your email for the code.', data: { username: 'alice', email: 'alice@example.com' } },
};

async function fillAndSubmit(app: ReturnType<typeof renderApp>, password = PASSWORD, confirmation = password) {
  await app.user.type(screen.getByLabelText('Full Name'), 'Alice Liddell');
  await app.user.type(screen.getByLabelText('Username'), 'alice');
  await app.user.type(screen.getByLabelText('Email'), 'alice@example.com');
  await app.user.type(screen.getByLabelText('Password'), password);
  await app.user.type(screen.getByLabelText('Confirm password'), confirmation);
  await app.user.click(screen.getByRole('button', { name: 'Sign Up' }));
}

describe('Sign-up page: session check', () => {
  it('shows "Checking..." until the profile check answers, then the form', async () => {
    installFakeClock();
    const answer = deferred<FakeAnswer>();
    fakeApi({ [route('GET', apiPaths.profile)]: () => answer.promise });
    renderApp('/signup', { routes });
    await advance(0);
    expect(screen.getByText('Checking...')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign Up' })).not.toBeInTheDocument();

    answer.resolve({ status: 401, body: { message: 'Please sign in.' } });
    await advance(0);
    expect(screen.queryByText('Checking...')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign Up' })).toBeInTheDocument();
  });

  it('shows the form at once, never "Checking...", in a browser that surely has no session', async () => {
    installFakeClock();
    const api = fakeApi({}, { sessionHint: false });
    renderApp('/signup', { routes });
    expect(screen.queryByText('Checking...')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign Up' })).toBeInTheDocument();
    await advance(0);
    expect(screen.getByRole('button', { name: 'Sign Up' })).toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });

  it('tells a signed-in visitor "You\'re already logged in!" and goes to /profile after 2 s', async () => {
    installFakeClock();
    fakeApi(signedInRoutes());
    const app = renderApp('/signup', { routes });
    await advance(0);
    expect(screen.getByText("You're already logged in!")).toBeInTheDocument();
    await advance(1999);
    expect(app.pathname()).toBe('/signup');
    await advance(1);
    expect(app.pathname()).toBe('/profile');
  });
});

describe('Sign-up page: form', () => {
  it('has four required fields, an email-type email, a show/hide toggle, the no-recovery notice and a sign-in link', async () => {
    installFakeClock();
    fakeApi();
    const app = renderApp('/signup', { routes });
    await advance(0);
    for (const label of ['Full Name', 'Username', 'Email', 'Password', 'Confirm password']) {
      expect(screen.getByLabelText(label)).toBeRequired();
    }
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    await app.user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'text');
    expect(screen.getByText(/Lockit cannot recover it if you forget it/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in here' })).toHaveAttribute('href', '/signin');
  });

  it('creates the account with derived keys only, sends the code and opens "Verify Your Email"', async () => {
    installFakeClockWithRealTime();
    const api = fakeApi({
      [route('POST', apiPaths.createUser)]: created,
      [route('POST', apiPaths.sendCode)]: { status: 200, body: { message: 'Verification code sent' } },
    });
    const app = renderApp('/signup', { routes });
    await screen.findByRole('button', { name: 'Sign Up' });
    await fillAndSubmit(app);

    const dialog = await screen.findByRole('dialog', { name: 'Verify Your Email' });
    expect(dialog).toHaveTextContent('alice@example.com');
    expect(screen.getByRole('status')).toHaveTextContent('Account created. Check your email for the code.');
    // Timing first: every real millisecond spent below also moves the clock.
    await advance(2500);
    expect(screen.getByText('Account created. Check your email for the code.')).toBeInTheDocument();
    await advance(600);
    expect(screen.queryByText('Account created. Check your email for the code.')).not.toBeInTheDocument();

    const body = api.to('POST', apiPaths.createUser)[0]?.body as CreateBody;
    expect(body).toMatchObject({
      fullname: 'Alice Liddell',
      username: 'alice',
      email: 'alice@example.com',
      kdf: DEFAULT_KDF_PARAMS,
      keyGeneration: 1,
    });
    expect(body.salt).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(JSON.stringify(api.requests.map((r) => r.body))).not.toContain(PASSWORD);
    // password is the authKey, and protectedKey opens with the wrapKey of the same password.
    const keys = await deriveKeysFromPassword(PASSWORD, body.salt, body.kdf);
    expect(body.password).toBe(keys.authKey);
    // A new account's first key is generation 1, bound in the wrap: it opens only as that generation.
    expect(await unwrapVaultKey(body.protectedKey, keys.wrapKey, body.kdf, body.salt, 1)).toHaveLength(32);
    await expect(unwrapVaultKey(body.protectedKey, keys.wrapKey, body.kdf, body.salt)).rejects.toThrow();
    // This browser remembers it, so a server answering generation 0 later is refused.
    await expect(checkRememberedKeyGeneration('alice', 0)).rejects.toThrow(/older key/);

    expect(api.to('POST', apiPaths.sendCode)[0]?.body).toEqual({ email: 'alice@example.com', username: 'alice' });
    // This browser now refuses weaker params for the account than the ones it just set.
    await expect(checkRememberedKdfParams('alice', FLOOR_KDF)).rejects.toThrow(/this browser already used/);

    await app.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows the server message for 3 s when sign-up fails, and opens no modal', async () => {
    installFakeClockWithRealTime();
    const api = fakeApi({
      [route('POST', apiPaths.createUser)]: { status: 409, body: { message: 'Username is already taken.' } },
    });
    const app = renderApp('/signup', { routes });
    await screen.findByRole('button', { name: 'Sign Up' });
    await fillAndSubmit(app);

    expect(await screen.findByRole('alert')).toHaveTextContent('Username is already taken.');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.to('POST', apiPaths.sendCode)).toHaveLength(0);
    // The account was not created: nothing is remembered for the name.
    await expect(checkRememberedKdfParams('alice', FLOOR_KDF)).resolves.toBeUndefined();
    await advance(2500);
    expect(screen.getByRole('alert')).toBeInTheDocument();
    await advance(600);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says "❌ Signup failed" when the server does not answer', async () => {
    installFakeClockWithRealTime();
    fakeApi({ [route('POST', apiPaths.createUser)]: 'network-error' });
    const app = renderApp('/signup', { routes });
    await screen.findByRole('button', { name: 'Sign Up' });
    await fillAndSubmit(app);
    expect(await screen.findByRole('alert')).toHaveTextContent('❌ Signup failed');
  });

  it('still opens the modal when the first code could not be sent, with the server message', async () => {
    installFakeClockWithRealTime();
    fakeApi({
      [route('POST', apiPaths.createUser)]: created,
      [route('POST', apiPaths.sendCode)]: { status: 429, body: { message: 'Please wait before asking for another code.' } },
    });
    const app = renderApp('/signup', { routes });
    await screen.findByRole('button', { name: 'Sign Up' });
    await fillAndSubmit(app);
    expect(await screen.findByRole('dialog', { name: 'Verify Your Email' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Please wait before asking for another code.');
  });

  it('explains the secure-context requirement on plain HTTP and disables sign-up', async () => {
    installFakeClock();
    fakeApi();
    Object.defineProperty(window, 'isSecureContext', { value: false, configurable: true });
    renderApp('/signup', { routes });
    await advance(0);
    expect(screen.getByRole('region', { name: 'Lockit needs a secure connection' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign Up' })).toBeDisabled();
  });
});

describe('Sign-up page: master-password policy', () => {
  async function refused(password: string, confirmation = password) {
    installFakeClockWithRealTime();
    const api = fakeApi({ [route('POST', apiPaths.createUser)]: created });
    const app = renderApp('/signup', { routes });
    await screen.findByRole('button', { name: 'Sign Up' });
    await fillAndSubmit(app, password, confirmation);
    const alert = await screen.findByRole('alert');
    expect(api.to('POST', apiPaths.createUser)).toHaveLength(0);
    expect(JSON.stringify(api.requests)).not.toContain(password);
    return alert;
  }

  it('refuses a password shorter than 12 characters, says how to pass, and sends nothing', async () => {
    const alert = await refused('Zq7!vK2#');
    expect(alert).toHaveTextContent('Use at least 12 characters.');
  });

  it("refuses a long but guessable password with zxcvbn's reason, and sends nothing", async () => {
    const alert = await refused('password1234');
    expect(alert).toHaveTextContent('This password is too easy to guess. Add another word or two');
    expect(alert).toHaveTextContent('This is similar to a commonly used password.');
    expect(alert).not.toHaveTextContent('Use at least 12 characters.');
  });

  it("counts the person's own name as guessable", async () => {
    const alert = await refused('alicealice2024');
    expect(alert).toHaveTextContent('This password is too easy to guess.');
  });

  it('refuses a confirmation that does not match, and sends nothing', async () => {
    const alert = await refused(PASSWORD, `${PASSWORD}!`);
    expect(alert).toHaveTextContent('The passwords do not match.');
    expect(alert).not.toHaveTextContent('too easy to guess');
  });

  it('accepts a strong password once the confirmation matches', async () => {
    installFakeClockWithRealTime();
    const api = fakeApi({
      [route('POST', apiPaths.createUser)]: created,
      [route('POST', apiPaths.sendCode)]: { status: 200, body: { message: 'Verification code sent' } },
    });
    const app = renderApp('/signup', { routes });
    await screen.findByRole('button', { name: 'Sign Up' });
    await fillAndSubmit(app, PASSWORD, 'a long master passwort');
    expect(await screen.findByRole('alert')).toHaveTextContent('The passwords do not match.');
    const confirm = screen.getByLabelText('Confirm password');
    await app.user.clear(confirm);
    await app.user.type(confirm, PASSWORD);
    await app.user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByRole('dialog', { name: 'Verify Your Email' })).toBeInTheDocument();
    expect(api.to('POST', apiPaths.createUser)).toHaveLength(1);
  });

  it("shows the strength meter's verdict and feedback as the password is typed", async () => {
    installFakeClockWithRealTime();
    fakeApi();
    const app = renderApp('/signup', { routes });
    await screen.findByRole('button', { name: 'Sign Up' });
    await app.user.type(screen.getByLabelText('Password'), 'password1');
    expect(await screen.findByText('Strength: Very weak')).toBeInTheDocument();
    expect(screen.getByText('This is a commonly used password.')).toBeInTheDocument();
    await app.user.type(screen.getByLabelText('Password'), ' of a quiet violet orchard');
    expect(await screen.findByText('Strength: Very strong')).toBeInTheDocument();
  });
});

describe('Sign-up page: the master password leaves the browser in no form', () => {
  let standIn: PwnedStandIn;
  beforeAll(async () => {
    standIn = await startPwnedStandIn({ [PASSWORD]: 7 });
  });
  afterAll(() => standIn.close());

  /** The fake API answers the app's calls; a server with a range API configured, the real stand-in. */
  function api() {
    const realFetch = globalThis.fetch;
    const fake = fakeApi({
      [route('GET', apiPaths.publicConfig)]: { status: 200, body: { message: 'OK', data: { breachCheckUrl: standIn.url } } },
      [route('POST', apiPaths.createUser)]: created,
      [route('POST', apiPaths.sendCode)]: { status: 200, body: { message: 'Verification code sent' } },
    });
    const answer = fake.fetchSpy.getMockImplementation()!;
    fake.fetchSpy.mockImplementation((input, init) =>
      String(input).startsWith(standIn.url) ? realFetch(input, init) : answer(input, init),
    );
    return fake;
  }

  it('offers no breach check of it, says why, and asks the range API nothing, even when the server has one', async () => {
    installFakeClockWithRealTime();
    const fake = api();
    const app = renderApp('/signup', { routes });
    await screen.findByRole('button', { name: 'Sign Up' });
    const before = standIn.requests.length;
    await fillAndSubmit(app);
    expect(await screen.findByRole('dialog', { name: 'Verify Your Email' })).toBeInTheDocument();
    expect(fake.to('GET', apiPaths.publicConfig).length).toBeGreaterThan(0);
    expect(screen.queryByRole('checkbox', { name: /breach/i })).toBeNull();
    expect(screen.getByText(/Your master password never leaves this browser, in any form/)).toBeInTheDocument();
    expect(standIn.requests.length).toBe(before);
    // Nothing the page sent anywhere holds the password's SHA-1, whole or in part.
    const digest = (await sha1Hex(PASSWORD)).slice(0, 5);
    const sent = fake.fetchSpy.mock.calls.map(([input, init]) => `${String(input)} ${String(init?.body ?? '')}`);
    expect(sent.filter((call) => call.toUpperCase().includes(`/RANGE/${digest}`))).toEqual([]);
    expect(fake.to('POST', apiPaths.createUser)).toHaveLength(1);
  });
});
