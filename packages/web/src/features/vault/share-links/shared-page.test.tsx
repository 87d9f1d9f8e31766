import { apiPaths } from '@lockit/contract';
import { sealShare, sealedAttachmentSize } from '@lockit/crypto';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, route } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { SharedPage } from './shared-page';

const routes = [{ path: '/share/:id', element: <SharedPage /> }];

async function share(password: string | null) {
  const { sealed, linkKey } = await sealShare({ kind: 'text', text: 'guest wifi: hunter2' }, password);
  const info = { id: sealed.id, status: 'available', passwordSalt: sealed.passwordSalt, expiresAt: '2030-01-01T00:00:00.000Z' };
  const opened = { ...sealed, openingsLeft: 0 };
  return { sealed, linkKey, info, opened };
}

describe('the share link page', () => {
  it('uses no opening until the click (a link preview costs nothing), then shows the decrypted text', async () => {
    const { sealed, linkKey, info, opened } = await share(null);
    const api = fakeApi({
      [route('GET', apiPaths.shared(sealed.id))]: { status: 200, body: { message: 'OK', data: info } },
      [route('POST', apiPaths.sharedOpen(sealed.id))]: { status: 200, body: { message: 'OK', data: opened } },
    });
    renderApp(`/share/${sealed.id}#${linkKey}`, { routes });
    const button = await screen.findByRole('button', { name: 'Open' });
    expect(api.requests.some((request) => request.path === apiPaths.sharedOpen(sealed.id))).toBe(false);
    await userEvent.click(button);
    expect(await screen.findByText('guest wifi: hunter2')).toBeInTheDocument();
    expect(api.requests.filter((request) => request.path === apiPaths.sharedOpen(sealed.id))).toHaveLength(1);
    expect(JSON.stringify(api.requests)).not.toContain(linkKey);
  });

  it('says a password is wrong and lets it be tried again without another opening', async () => {
    const { sealed, linkKey, info, opened } = await share('right one');
    const api = fakeApi({
      [route('GET', apiPaths.shared(sealed.id))]: { status: 200, body: { message: 'OK', data: info } },
      [route('POST', apiPaths.sharedOpen(sealed.id))]: { status: 200, body: { message: 'OK', data: opened } },
    });
    renderApp(`/share/${sealed.id}#${linkKey}`, { routes });
    await userEvent.type(await screen.findByLabelText('Password'), 'wrong one');
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByRole('alert', {}, { timeout: 10_000 })).toHaveTextContent('Wrong password.');
    await userEvent.clear(screen.getByLabelText('Password'));
    await userEvent.type(screen.getByLabelText('Password'), 'right one');
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByText('guest wifi: hunter2', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(api.requests.filter((request) => request.path === apiPaths.sharedOpen(sealed.id))).toHaveLength(1);
  }, 30_000);

  it('says so when the server changed the content, and shows nothing of it', async () => {
    const { sealed, linkKey, info, opened } = await share(null);
    const other = await share(null);
    fakeApi({
      [route('GET', apiPaths.shared(sealed.id))]: { status: 200, body: { message: 'OK', data: info } },
      [route('POST', apiPaths.sharedOpen(sealed.id))]: {
        status: 200,
        body: { message: 'OK', data: { ...opened, ciphertext: other.sealed.ciphertext } },
      },
    });
    renderApp(`/share/${sealed.id}#${linkKey}`, { routes });
    await userEvent.click(await screen.findByRole('button', { name: 'Open' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('its contents were changed after it was shared');
    expect(screen.queryByText('guest wifi: hunter2')).not.toBeInTheDocument();
  });

  it('shows a used-up link as such, with no Open button', async () => {
    const { sealed, linkKey, info } = await share(null);
    fakeApi({
      [route('GET', apiPaths.shared(sealed.id))]: { status: 200, body: { message: 'OK', data: { ...info, status: 'used-up' } } },
    });
    renderApp(`/share/${sealed.id}#${linkKey}`, { routes });
    expect(await screen.findByRole('alert')).toHaveTextContent('This link has been opened as many times as allowed.');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Open' })).not.toBeInTheDocument());
  });

  it('opens a shared file to its name and size, fetching nothing of it before Download', async () => {
    const { sealed, linkKey } = await sealShare(
      { kind: 'file', file: { name: 'plan.pdf', type: 'application/pdf', size: 2048 } },
      null,
    );
    const info = { id: sealed.id, status: 'available', passwordSalt: null, expiresAt: '2030-01-01T00:00:00.000Z' };
    const opened = { ...sealed, openingsLeft: 0, file: { size: sealedAttachmentSize(2048), ticket: 'ticket-1' } };
    const api = fakeApi({
      [route('GET', apiPaths.shared(sealed.id))]: { status: 200, body: { message: 'OK', data: info } },
      [route('POST', apiPaths.sharedOpen(sealed.id))]: { status: 200, body: { message: 'OK', data: opened } },
    });
    renderApp(`/share/${sealed.id}#${linkKey}`, { routes });
    await userEvent.click(await screen.findByRole('button', { name: 'Open' }));
    expect(await screen.findByText('plan.pdf')).toBeInTheDocument();
    expect(screen.getByText('2 KB')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download' })).toBeInTheDocument();
    expect(api.requests.some((request) => request.path === apiPaths.sharedFile(sealed.id))).toBe(false);
  });
});
