import { apiPaths } from '@lockit/contract';
import { screen, within } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, route } from '@/testing/fake-api';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { advance, installFakeClock } from '@/testing/timers';
import { MAIL_FAILED_TEXT, VerifyEmailModal } from './verify-email-modal';

function Opener({ delivery }: { delivery?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open verification
      </button>
      {open && <VerifyEmailModal email="alice@example.com" username="alice" delivery={delivery} onClose={() => setOpen(false)} />}
    </>
  );
}

const routes = pageRoutes({ '/signup': <Opener />, '/signin': <h1>Sign-in page</h1> });

async function openModal(delivery?: string) {
  const app = renderApp('/signup', {
    routes: delivery === undefined ? routes : pageRoutes({ '/signup': <Opener delivery={delivery} /> }),
  });
  await advance(0);
  await app.user.click(screen.getByRole('button', { name: 'Open verification' }));
  return app;
}

const dialog = () => screen.getByRole('dialog', { name: 'Verify Your Email' });

async function enterCode(app: Awaited<ReturnType<typeof openModal>>, code = 'ABC123') {
  await app.user.type(within(dialog()).getByLabelText('Verification Code'), code);
  await app.user.click(within(dialog()).getByRole('button', { name: 'Verify Code' }));
  await advance(0);
}

describe('Verify Your Email modal', () => {
  beforeEach(() => {
    installFakeClock();
  });

  it('has a code input of at most 6 characters and the three buttons', async () => {
    fakeApi();
    await openModal();
    const input = within(dialog()).getByLabelText('Verification Code');
    expect(input).toHaveAttribute('maxLength', '6');
    expect(input).toHaveFocus();
    for (const name of ['Verify Code', 'Resend Code', 'Cancel']) {
      expect(within(dialog()).getByRole('button', { name })).toBeInTheDocument();
    }
  });

  it('on a 200 shows "Email verified!" for 3 s and goes to /signin after 2 s', async () => {
    const api = fakeApi({ [route('POST', apiPaths.verifyCode)]: { status: 200, body: { message: 'Email verified' } } });
    const app = await openModal();
    await enterCode(app);

    expect(api.to('POST', apiPaths.verifyCode)[0]?.body).toEqual({
      email: 'alice@example.com',
      username: 'alice',
      code: 'ABC123',
    });
    expect(screen.getByRole('status')).toHaveTextContent('Email verified!');
    await advance(1999);
    expect(app.pathname()).toBe('/signup');
    await advance(1);
    expect(app.pathname()).toBe('/signin');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('Email verified!')).toBeInTheDocument();
    await advance(999);
    expect(screen.getByText('Email verified!')).toBeInTheDocument();
    await advance(1);
    expect(screen.queryByText('Email verified!')).not.toBeInTheDocument();
  });

  it('says "❌ Invalid code. Try again." for 3 s on any other status', async () => {
    fakeApi({ [route('POST', apiPaths.verifyCode)]: { status: 400, body: { message: 'Invalid or expired code.' } } });
    const app = await openModal();
    await enterCode(app);
    expect(screen.getByRole('alert')).toHaveTextContent('❌ Invalid code. Try again.');
    expect(dialog()).toBeInTheDocument();
    await advance(2999);
    expect(screen.getByRole('alert')).toBeInTheDocument();
    await advance(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(app.pathname()).toBe('/signup');
  });

  it('says "❌ Invalid code. Try again." for a 2xx other than 200 too', async () => {
    fakeApi({ [route('POST', apiPaths.verifyCode)]: { status: 202, body: { message: 'Accepted' } } });
    const app = await openModal();
    await enterCode(app);
    expect(screen.getByRole('alert')).toHaveTextContent('❌ Invalid code. Try again.');
    expect(screen.queryByText('Email verified!')).not.toBeInTheDocument();
    await advance(2000);
    expect(app.pathname()).toBe('/signup');
  });

  it('says "❌ Verification failed" when the request itself fails', async () => {
    fakeApi({ [route('POST', apiPaths.verifyCode)]: 'network-error' });
    const app = await openModal();
    await enterCode(app);
    expect(screen.getByRole('alert')).toHaveTextContent('❌ Verification failed');
  });

  it('resends the code and shows the server message for 3 s', async () => {
    const api = fakeApi({ [route('POST', apiPaths.sendCode)]: { status: 200, body: { message: 'Verification code sent' } } });
    const app = await openModal();
    await app.user.click(within(dialog()).getByRole('button', { name: 'Resend Code' }));
    await advance(0);
    expect(api.to('POST', apiPaths.sendCode)[0]?.body).toEqual({ email: 'alice@example.com', username: 'alice' });
    expect(screen.getByRole('status')).toHaveTextContent('Verification code sent');
    await advance(3000);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('says "❌ Failed to resend code." when resending fails', async () => {
    fakeApi({
      [route('POST', apiPaths.sendCode)]: {
        status: 429,
        body: { message: 'Please wait a minute.' },
        headers: { 'retry-after': '60' },
      },
    });
    const app = await openModal();
    await app.user.click(within(dialog()).getByRole('button', { name: 'Resend Code' }));
    await advance(0);
    expect(screen.getByRole('alert')).toHaveTextContent('❌ Failed to resend code.');
  });

  it('when the server asks for a pause, the button counts it down, disabled, and sends again once it is over', async () => {
    const api = fakeApi({
      [route('POST', apiPaths.sendCode)]: { status: 429, body: { message: 'Wait.' }, headers: { 'retry-after': '45' } },
    });
    const app = await openModal();
    await app.user.click(within(dialog()).getByRole('button', { name: 'Resend Code' }));
    await advance(0);
    expect(screen.getByRole('alert')).toHaveTextContent('❌ Failed to resend code.');
    expect(within(dialog()).getByRole('button', { name: 'Resend Code (wait 45 s)' })).toBeDisabled();
    await advance(1000);
    expect(within(dialog()).getByRole('button', { name: 'Resend Code (wait 44 s)' })).toBeDisabled();
    await advance(43_000);
    expect(within(dialog()).getByRole('button', { name: 'Resend Code (wait 1 s)' })).toBeDisabled();
    await advance(1000);
    const button = within(dialog()).getByRole('button', { name: 'Resend Code' });
    expect(button).toBeEnabled();

    api.set(route('POST', apiPaths.sendCode), { status: 200, body: { message: 'Verification code sent' } });
    await app.user.click(button);
    await advance(0);
    expect(api.to('POST', apiPaths.sendCode)).toHaveLength(2);
    expect(screen.getByRole('status')).toHaveTextContent('Verification code sent');
  });

  it('a failure without a requested pause leaves the button as it was', async () => {
    fakeApi({ [route('POST', apiPaths.sendCode)]: 'network-error' });
    const app = await openModal();
    await app.user.click(within(dialog()).getByRole('button', { name: 'Resend Code' }));
    await advance(0);
    expect(screen.getByRole('alert')).toHaveTextContent('❌ Failed to resend code.');
    expect(within(dialog()).getByRole('button', { name: 'Resend Code' })).toBeEnabled();
  });

  it('closes on Cancel and on Escape, giving focus back', async () => {
    fakeApi();
    const app = await openModal();
    await app.user.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open verification' })).toHaveFocus();

    await app.user.click(screen.getByRole('button', { name: 'Open verification' }));
    await app.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  describe('when the mail with the code could not be sent (decision 0043)', () => {
    const TICKET = 'TICKET_one_0123456789a';
    const OTHER = 'TICKET_two_0123456789a';
    /** Answers the delivery questions of a ticket in turn, repeating the last. */
    const delivery = (ticket: string, ...statuses: string[]) => ({
      [route('GET', apiPaths.mailDelivery(ticket))]: () => {
        const status = statuses.length > 1 ? statuses.shift() : statuses[0];
        return { status: 200, body: { message: 'OK', data: { status } } };
      },
    });

    it('says so plainly once the ticket says failed, keeping the code form', async () => {
      const api = fakeApi(delivery(TICKET, 'pending', 'pending', 'failed'));
      await openModal(TICKET);
      // Asked once a second while pending: nothing to say until the third answer.
      const asked = () => api.to('GET', apiPaths.mailDelivery(TICKET)).length;
      while (asked() < 3) {
        expect(within(dialog()).queryByRole('alert')).not.toBeInTheDocument();
        await advance(1000);
      }
      expect(await within(dialog()).findByRole('alert')).toHaveTextContent(MAIL_FAILED_TEXT);
      expect(within(dialog()).getByText(/We sent a 6-character code to/)).toBeInTheDocument();
      expect(within(dialog()).getByLabelText('Verification Code')).toBeInTheDocument();
    });

    it('says nothing more when the mail went out, and stops asking', async () => {
      const api = fakeApi(delivery(TICKET, 'pending', 'sent'));
      await openModal(TICKET);
      await advance(5000);
      expect(screen.queryByText(MAIL_FAILED_TEXT)).not.toBeInTheDocument();
      expect(api.to('GET', apiPaths.mailDelivery(TICKET))).toHaveLength(2);
    });

    it('a resend that goes out replaces the failure', async () => {
      fakeApi({
        ...delivery(TICKET, 'failed'),
        ...delivery(OTHER, 'sent'),
        [route('POST', apiPaths.sendCode)]: { status: 200, body: { message: 'Code on its way', data: { delivery: OTHER } } },
      });
      const app = await openModal(TICKET);
      expect(await within(dialog()).findByText(MAIL_FAILED_TEXT)).toBeInTheDocument();
      await app.user.click(within(dialog()).getByRole('button', { name: 'Resend Code' }));
      await advance(0);
      expect(screen.queryByText(MAIL_FAILED_TEXT)).not.toBeInTheDocument();
    });

    it('shows nothing when the server does not know the ticket', async () => {
      fakeApi({
        [route('GET', apiPaths.mailDelivery(TICKET))]: { status: 404, body: { message: 'No mail with that ticket here.' } },
      });
      await openModal(TICKET);
      await advance(3000);
      expect(screen.queryByText(MAIL_FAILED_TEXT)).not.toBeInTheDocument();
    });
  });
});
