import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminPaths } from '@lockit/contract';
import { fakeApi, route, routePrefix, type FakeRequest } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

const session = { message: 'OK', data: { expiresAt: '2026-11-24T15:00:00.000Z', idleMinutes: 15 } };
const alice = {
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  username: 'alice',
  email: 'alice@example.com',
  createdAt: '2026-11-01T10:00:00.000Z',
  lastSeenAt: null,
  verified: true,
  disabled: false,
  items: 12,
  bytes: 5_120,
  twoFactor: 'totp',
};
const signedInAdmin = {
  [route('GET', adminPaths.session)]: { status: 200, body: session },
  [route('GET', adminPaths.users)]: { status: 200, body: { message: 'OK', data: { users: [alice] } } },
  [route('GET', adminPaths.diagnostics)]: {
    status: 200,
    body: { message: 'OK', data: { text: 'Lockit diagnostics\nLockit version: 0.1.0' } },
  },
};

describe('/admin', () => {
  it('is "Page not found" when the server has no admin (its admin API answers 404)', async () => {
    fakeApi({ [route('GET', adminPaths.session)]: { status: 404, body: { message: 'Not found.' } } });
    renderApp('/admin');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Admin token', { exact: true })).not.toBeInTheDocument();
  });

  it('asks for the token, shows the server refusal, and signs in', async () => {
    let signedIn = false;
    const api = fakeApi({
      [route('GET', adminPaths.session)]: () =>
        signedIn ? { status: 200, body: session } : { status: 401, body: { message: 'x' } },
      [route('POST', adminPaths.signIn)]: (request: FakeRequest) => {
        if ((request.body as { token: string }).token !== 'right-token') {
          return { status: 401, body: { message: 'That admin token is not right.' } };
        }
        signedIn = true;
        return { status: 200, body: session };
      },
      [route('GET', adminPaths.users)]: signedInAdmin[route('GET', adminPaths.users)]!,
      [route('GET', adminPaths.diagnostics)]: signedInAdmin[route('GET', adminPaths.diagnostics)]!,
    });
    const { user } = renderApp('/admin');
    const field = await screen.findByLabelText('Admin token', { exact: true });
    await user.type(field, 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('That admin token is not right.');
    await user.clear(field);
    await user.type(field, 'right-token');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const row = await screen.findByRole('row', { name: 'alice' });
    expect(within(row).getByText('alice@example.com')).toBeInTheDocument();
    expect(within(row).getByText('5.0 KiB')).toBeInTheDocument();
    expect(within(row).getByText('never')).toBeInTheDocument();
    expect(within(row).getByText('Authenticator app')).toBeInTheDocument();
    expect(
      api.requests.find((r) => r.path === adminPaths.signIn && (r.body as { token: string }).token === 'right-token'),
    ).toBeDefined();
  });

  it('deletes only after the confirmation, then refreshes the list', async () => {
    let deleted = false;
    const api = fakeApi({
      ...signedInAdmin,
      [route('GET', adminPaths.users)]: () => ({ status: 200, body: { message: 'OK', data: { users: deleted ? [] : [alice] } } }),
      [routePrefix('DELETE', adminPaths.user(''))]: () => {
        deleted = true;
        return { status: 200, body: { message: 'Account deleted' } };
      },
    });
    const { user } = renderApp('/admin');
    const row = await screen.findByRole('row', { name: 'alice' });
    await user.click(within(row).getByRole('button', { name: 'Delete alice' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete account' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    await user.click(within(await screen.findByRole('row', { name: 'alice' })).getByRole('button', { name: 'Delete alice' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Delete account' })).getByRole('button', { name: 'Yes, delete' }));
    expect(await screen.findByText('No accounts yet.')).toBeInTheDocument();
    // The server's message stays on screen although the row that asked is gone.
    expect(screen.getByText('Account deleted')).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([adminPaths.user(alice.id)]);
  });

  it('goes back to the sign-in form when the admin session has ended (401)', async () => {
    fakeApi({
      ...signedInAdmin,
      [route('GET', adminPaths.users)]: { status: 401, body: { message: 'Please sign in with the admin token.' } },
    });
    renderApp('/admin');
    expect(await screen.findByLabelText('Admin token', { exact: true })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('heading', { name: /^Users/ })).not.toBeInTheDocument());
  });
});
