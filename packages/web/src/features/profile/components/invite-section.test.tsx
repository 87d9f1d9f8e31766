import { apiPaths } from '@lockit/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, route, routePrefix, signedInRoutes, type FakeRequest } from '@/testing/fake-api';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { installFakeClockWithRealTime } from '@/testing/timers';
import { ProfilePage } from './profile-page';

/** Profile's "Invite someone" (SIGNUP_MODE=invite, decision 0044). */
const routes = pageRoutes({ '/profile': <ProfilePage /> });
const URL_SHOWN = `http://localhost:3000/signup?invite=${'L'.repeat(43)}`;
const open = [
  {
    id: '0f8fad5b-d9cb-469f-a165-70867728950e',
    email: 'friend@example.com',
    createdAt: '2026-11-24T10:00:00.000Z',
    expiresAt: '2026-12-01T10:00:00.000Z',
  },
  {
    id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    email: null,
    createdAt: '2026-11-24T09:00:00.000Z',
    expiresAt: '2026-12-01T09:00:00.000Z',
  },
];

function inviteApi() {
  let invites = [...open];
  return fakeApi({
    ...signedInRoutes(),
    [route('GET', apiPaths.invites)]: () => ({ status: 200, body: { message: 'OK', data: invites } }),
    [route('POST', apiPaths.invites)]: (request: FakeRequest) => {
      const email = (request.body as { email?: string }).email ?? null;
      const invite = {
        id: '9b2f1e43-0000-4000-8000-000000000001',
        email,
        createdAt: '2026-11-24T11:00:00.000Z',
        expiresAt: '2026-12-01T11:00:00.000Z',
      };
      invites = [invite, ...invites];
      return { status: 201, body: { message: 'Invitation created', data: { ...invite, url: URL_SHOWN, mailed: false } } };
    },
    [routePrefix('DELETE', apiPaths.invite(''))]: (request: FakeRequest) => {
      invites = invites.filter((invite) => apiPaths.invite(invite.id) !== request.path);
      return { status: 200, body: { message: 'Invitation revoked' } };
    },
  });
}

describe('Invite someone', () => {
  it('makes a link, shows it with Copy, and lists and revokes open invitations', async () => {
    installFakeClockWithRealTime();
    const api = inviteApi();
    const app = renderApp('/profile', { routes, signupMode: 'invite' });
    const section = await screen.findByRole('region', { name: 'Invite someone' });
    const list = await within(section).findByRole('list', { name: 'Open invitations' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(list).toHaveTextContent('friend@example.com');
    expect(list).toHaveTextContent('Anyone with the link');

    await app.user.click(within(section).getByRole('button', { name: 'Create invite link' }));
    expect(await within(section).findByRole('textbox', { name: 'Invite link' })).toHaveValue(URL_SHOWN);
    expect(api.to('POST', apiPaths.invites)[0]?.body).toEqual({});
    await app.user.click(within(section).getByRole('button', { name: 'Copy' }));
    // user-event's clipboard stands in for the browser's.
    expect(await navigator.clipboard.readText()).toBe(URL_SHOWN);
    expect(within(section).getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3));

    await app.user.click(within(section).getByRole('button', { name: 'Revoke the invitation for friend@example.com' }));
    await waitFor(() => expect(list).not.toHaveTextContent('friend@example.com'));
    expect(api.to('DELETE', apiPaths.invite(open[0]!.id))).toHaveLength(1);
  });

  it('sends the address when one is given, and shows the server’s refusal', async () => {
    installFakeClockWithRealTime();
    const api = fakeApi({
      ...signedInRoutes(),
      [route('GET', apiPaths.invites)]: { status: 200, body: { message: 'OK', data: [] } },
      [route('POST', apiPaths.invites)]: {
        status: 403,
        body: { message: 'Sign-up on this server is limited to e-mail addresses at example.org.' },
      },
    });
    const app = renderApp('/profile', { routes, signupMode: 'invite' });
    const section = await screen.findByRole('region', { name: 'Invite someone' });
    await app.user.type(within(section).getByLabelText('Their email (optional)'), 'pal@example.com');
    await app.user.click(within(section).getByRole('button', { name: 'Create invite link' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent('limited to e-mail addresses at example.org');
    expect(api.to('POST', apiPaths.invites)[0]?.body).toEqual({ email: 'pal@example.com' });
  });

  for (const mode of ['open', 'closed'] as const) {
    it(`is not there in ${mode} mode, and asks nothing about invitations`, async () => {
      installFakeClockWithRealTime();
      const api = fakeApi(signedInRoutes());
      renderApp('/profile', { routes, signupMode: mode });
      await screen.findByRole('heading', { name: 'Delete Account' });
      expect(screen.queryByRole('region', { name: 'Invite someone' })).not.toBeInTheDocument();
      expect(api.to('GET', apiPaths.invites)).toEqual([]);
    });
  }
});
