import { apiPaths } from '@lockit/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, route, routePrefix, signedInRoutes, THIS_SESSION, type FakeRequest } from '@/testing/fake-api';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { installFakeClockWithRealTime } from '@/testing/timers';
import { ProfilePage } from './profile-page';

/** Profile's "Sessions and devices". */
const routes = pageRoutes({ '/profile': <ProfilePage /> });
const HOUR = 60 * 60 * 1000;

function sessionsAt(now: number) {
  return [
    { ...THIS_SESSION, lastUsedAt: new Date(now).toISOString() },
    {
      id: '6fa459ea-ee8a-4ca4-894e-db77e160355e',
      browser: 'Firefox 128',
      system: 'Windows 10',
      createdAt: new Date(now - 50 * HOUR).toISOString(),
      lastUsedAt: new Date(now - 2 * HOUR).toISOString(),
      address: '198.51.100.7',
      signInAddress: '192.0.2.44',
      current: false,
    },
    {
      id: '9c5b94b1-35ad-49bb-b118-8e8fc24abf80',
      browser: null,
      system: null,
      createdAt: new Date(now - 5 * HOUR).toISOString(),
      lastUsedAt: new Date(now - 5 * HOUR).toISOString(),
      address: null,
      signInAddress: null,
      current: false,
    },
  ];
}

/** The server as the sessions calls see it: ending removes from the list, as the real one does. */
function sessionsApi() {
  let sessions = sessionsAt(Date.now());
  return fakeApi({
    ...signedInRoutes(),
    [route('GET', apiPaths.sessions)]: () => ({ status: 200, body: { message: 'OK', data: sessions } }),
    [routePrefix('DELETE', apiPaths.session(''))]: (request: FakeRequest) => {
      sessions = sessions.filter((session) => apiPaths.session(session.id) !== request.path);
      return { status: 200, body: { message: 'Session ended' } };
    },
    [route('POST', apiPaths.endOtherSessions)]: () => {
      const ended = sessions.filter((session) => !session.current).length;
      sessions = sessions.filter((session) => session.current);
      return { status: 200, body: { message: 'Other sessions ended', data: { ended } } };
    },
  });
}

async function openSection() {
  const section = await screen.findByRole('region', { name: 'Sessions and devices' });
  const list = await within(section).findByRole('list', { name: 'Sessions' });
  return { section, list };
}

describe('Sessions and devices', () => {
  it('lists each session: browser and system, address, start, last activity, and "This device" on this one only', async () => {
    installFakeClockWithRealTime();
    sessionsApi();
    renderApp('/profile', { routes });
    const { list } = await openSection();
    const [mine, firefox, unknown] = within(list).getAllByRole('listitem');

    expect(mine).toHaveTextContent('Chrome 156 on Linux');
    expect(mine).toHaveTextContent('This device');
    expect(mine).toHaveTextContent('203.0.113.5');
    expect(mine).toHaveTextContent('Active now');
    expect(within(mine!).queryByRole('button', { name: 'End' })).not.toBeInTheDocument();

    expect(firefox).toHaveTextContent('Firefox 128 on Windows 10');
    expect(firefox).toHaveTextContent('198.51.100.7 (signed in from 192.0.2.44)');
    expect(firefox).toHaveTextContent('Started');
    expect(firefox).toHaveTextContent('Last active 2 hours ago');
    expect(firefox).not.toHaveTextContent('This device');
    expect(within(firefox!).getByRole('button', { name: 'End' })).toHaveAccessibleDescription('Firefox 128 on Windows 10');

    expect(unknown).toHaveTextContent('Unknown device');
    expect(unknown).toHaveTextContent('Address unknown');
    expect(unknown).toHaveTextContent('Last active 5 hours ago');
    expect(within(list).getAllByText('This device')).toHaveLength(1);
  });

  it('ends one session after a confirmation, and sends nothing when it is cancelled', async () => {
    installFakeClockWithRealTime();
    const api = sessionsApi();
    const app = renderApp('/profile', { routes });
    const { section, list } = await openSection();
    const firefox = within(list).getAllByRole('listitem')[1]!;

    await app.user.click(within(firefox).getByRole('button', { name: 'End' }));
    const cancelled = await screen.findByRole('dialog', { name: 'End this session?' });
    expect(cancelled).toHaveTextContent('Firefox 128 on Windows 10 at 198.51.100.7 will be signed out at its next request.');
    await app.user.click(within(cancelled).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.to('DELETE', apiPaths.session('6fa459ea-ee8a-4ca4-894e-db77e160355e'))).toEqual([]);

    await app.user.click(within(firefox).getByRole('button', { name: 'End' }));
    const dialog = await screen.findByRole('dialog', { name: 'End this session?' });
    await app.user.click(within(dialog).getByRole('button', { name: 'End session' }));
    expect(await within(section).findByRole('status')).toHaveTextContent(
      'Session ended: Firefox 128 on Windows 10 is signed out.',
    );
    expect(api.to('DELETE', apiPaths.session('6fa459ea-ee8a-4ca4-894e-db77e160355e'))).toHaveLength(1);
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(list).not.toHaveTextContent('Firefox');
  });

  it('signs out all other sessions after a confirmation, and keeps this one', async () => {
    installFakeClockWithRealTime();
    const api = sessionsApi();
    const app = renderApp('/profile', { routes });
    const { section, list } = await openSection();

    await app.user.click(within(section).getByRole('button', { name: 'Sign out all other sessions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out all other sessions?' });
    expect(dialog).toHaveTextContent('(2) will be signed out at its next request. This browser stays signed in.');
    await app.user.click(within(dialog).getByRole('button', { name: 'Sign out others' }));
    expect(await within(section).findByRole('status')).toHaveTextContent('Signed out 2 other sessions.');
    expect(api.to('POST', apiPaths.endOtherSessions)).toHaveLength(1);
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(list).toHaveTextContent('This device');
    // Nothing left to sign out.
    expect(within(section).queryByRole('button', { name: 'Sign out all other sessions' })).not.toBeInTheDocument();
  });

  it('shows the server’s refusal when a session cannot be ended', async () => {
    installFakeClockWithRealTime();
    fakeApi({
      ...signedInRoutes(),
      [route('GET', apiPaths.sessions)]: { status: 200, body: { message: 'OK', data: sessionsAt(Date.now()) } },
      [routePrefix('DELETE', apiPaths.session(''))]: { status: 404, body: { message: 'No session of yours with that id.' } },
    });
    const app = renderApp('/profile', { routes });
    const { section, list } = await openSection();
    await app.user.click(within(within(list).getAllByRole('listitem')[2]!).getByRole('button', { name: 'End' }));
    await app.user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'End session' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent('No session of yours with that id.');
  });

  it('with only this browser signed in, offers nothing to end', async () => {
    installFakeClockWithRealTime();
    fakeApi(signedInRoutes());
    renderApp('/profile', { routes });
    const { section, list } = await openSection();
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(within(section).queryByRole('button', { name: /End|Sign out all/ })).not.toBeInTheDocument();
  });
});
