import { apiPaths } from '@lockit/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HomePage } from '@/features/landing/components/home-page';
import { fakeApi, route, type FakeAnswer } from '@/testing/fake-api';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { advance, installFakeClock, installFakeClockWithRealTime } from '@/testing/timers';
import { SignInPage } from './sign-in-page';
import { SignUpPage } from './sign-up-page';

/** Who may sign up (decision 0044): what each page offers in each mode. */
const routes = pageRoutes({ '/signup': <SignUpPage />, '/signin': <SignInPage />, '/home': <HomePage /> });
const TOKEN = 'T'.repeat(43);
const PASSWORD = 'a long master password';

const publicConfig = (data: Record<string, unknown>): FakeAnswer => ({
  status: 200,
  body: { message: 'OK', data: { breachCheckUrl: null, ...data } },
});
const mainNav = () => screen.getByRole('navigation', { name: 'Main' });
const linkNames = (nav: HTMLElement) =>
  within(nav)
    .getAllByRole('link')
    .map((link) => link.textContent);

describe('/signup by mode', () => {
  it('closed: says sign-up is closed, with no form and no call to create', async () => {
    installFakeClock();
    const api = fakeApi({}, { sessionHint: false });
    renderApp('/signup', { routes, signupMode: 'closed' });
    await advance(0);
    expect(screen.getByText('Sign-up is closed on this server. Ask its operator for an account.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign Up' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in here' })).toHaveAttribute('href', '/signin');
    expect(api.to('POST', apiPaths.createUser)).toEqual([]);
  });

  it('invite without a link: says sign-up is by invitation, with no form', async () => {
    installFakeClock();
    fakeApi({}, { sessionHint: false });
    renderApp('/signup', { routes, signupMode: 'invite' });
    await advance(0);
    expect(screen.getByText(/Sign-up on this server is by invitation/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign Up' })).not.toBeInTheDocument();
  });

  it('invite with a link: shows the form and sends the invitation token with the sign-up', async () => {
    installFakeClockWithRealTime();
    const api = fakeApi(
      {
        [route('POST', apiPaths.createUser)]: {
          status: 201,
          body: {
            message: 'Account created. Check your email for the verification code.',
            data: { username: 'bob', email: 'bob@example.com' },
          },
        },
        [route('POST', apiPaths.sendCode)]: { status: 200, body: { message: 'sent' } },
      },
      { sessionHint: false },
    );
    const app = renderApp(`/signup?invite=${TOKEN}`, { routes, signupMode: 'invite' });
    await app.user.type(screen.getByLabelText('Full Name'), 'Bob Builder');
    await app.user.type(screen.getByLabelText('Username'), 'bob');
    await app.user.type(screen.getByLabelText('Email'), 'bob@example.com');
    await app.user.type(screen.getByLabelText('Password'), PASSWORD);
    await app.user.type(screen.getByLabelText('Confirm password'), PASSWORD);
    await app.user.click(screen.getByRole('button', { name: 'Sign Up' }));
    await screen.findByRole('dialog', { name: 'Verify Your Email' });
    expect(api.to('POST', apiPaths.createUser)[0]?.body).toMatchObject({ username: 'bob', invite: TOKEN });
  });

  it('open: ignores an invitation link and sends no token', async () => {
    installFakeClock();
    fakeApi({}, { sessionHint: false });
    renderApp(`/signup?invite=${TOKEN}`, { routes, signupMode: 'open' });
    await advance(0);
    expect(screen.getByRole('button', { name: 'Sign Up' })).toBeInTheDocument();
  });

  it('names the allowed domains and refuses another before sending anything', async () => {
    installFakeClockWithRealTime();
    const api = fakeApi(
      { [route('GET', apiPaths.publicConfig)]: publicConfig({ allowedEmailDomains: ['example.org'] }) },
      { sessionHint: false },
    );
    const app = renderApp('/signup', { routes, signupMode: 'open' });
    await app.user.type(screen.getByLabelText('Email'), 'me@example.com');
    expect(await screen.findByText('Sign-up on this server is limited to e-mail addresses at example.org.')).toBeInTheDocument();
    await app.user.type(screen.getByLabelText('Full Name'), 'Me');
    await app.user.type(screen.getByLabelText('Username'), 'me_me');
    await app.user.type(screen.getByLabelText('Password'), PASSWORD);
    await app.user.type(screen.getByLabelText('Confirm password'), PASSWORD);
    await app.user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Sign-up on this server is limited to e-mail addresses at example.org.');
    expect(api.to('POST', apiPaths.createUser)).toEqual([]);
  });
});

describe('links to sign up, by mode', () => {
  for (const mode of ['invite', 'closed'] as const) {
    it(`${mode}: no Sign Up in the header, the mobile menu, the home page or the sign-in page`, async () => {
      installFakeClockWithRealTime();
      fakeApi({}, { sessionHint: false });
      const app = renderApp('/home', { routes, signupMode: mode });
      expect(linkNames(mainNav())).toEqual(['Home', 'About', 'Sign In']);
      expect(screen.queryByRole('button', { name: 'Get Started' })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Create Your Free Account' })).not.toBeInTheDocument();
      await app.user.click(screen.getByRole('button', { name: 'Sign In' }));
      expect(app.pathname()).toBe('/signin');
      expect(screen.queryByRole('link', { name: 'Sign up here' })).not.toBeInTheDocument();
      expect(screen.queryByRole('link', { name: /sign up/i })).not.toBeInTheDocument();

      await app.user.click(screen.getByRole('button', { name: 'Open menu' }));
      expect(linkNames(screen.getByRole('navigation', { name: 'Mobile' }))).toEqual(['Home', 'About', 'Sign In']);
    });
  }

  it('open: Sign Up everywhere', async () => {
    installFakeClock();
    fakeApi({}, { sessionHint: false });
    renderApp('/home', { routes, signupMode: 'open' });
    await advance(0);
    expect(linkNames(mainNav())).toEqual(['Home', 'About', 'Sign In', 'Sign Up']);
    expect(screen.getByRole('button', { name: 'Get Started' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Your Free Account' })).toBeInTheDocument();
  });

  it('a page that carries no mode offers no sign-up until the server says it is open', async () => {
    installFakeClockWithRealTime();
    const api = fakeApi({ [route('GET', apiPaths.publicConfig)]: publicConfig({ signupMode: 'open' }) }, { sessionHint: false });
    renderApp('/home', { routes, signupMode: undefined });
    expect(linkNames(mainNav())).toEqual(['Home', 'About', 'Sign In']);
    await waitFor(() => expect(linkNames(mainNav())).toEqual(['Home', 'About', 'Sign In', 'Sign Up']));
    expect(api.to('GET', apiPaths.publicConfig)).toHaveLength(1);
  });
});
