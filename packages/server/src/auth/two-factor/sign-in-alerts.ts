import type { AppContext } from '../../app-context';
import type { UserRow } from '../../db/repositories/users-repository';
import type { SignInAlertMail } from '../../mail/mailer';
import { describeUserAgent } from '../describe-user-agent';

/** Where a sign-in came from, as stored (capped) from the request. */
export interface SignInOrigin {
  userAgent: string | null;
  address: string | null;
}

/**
 * Queues a sign-in notice to the account's owner. It runs after the answer is sent, so the
 * answer's timing never depends on the mail server, and a failed send is logged, not thrown.
 */
export function queueSignInAlert(
  ctx: Pick<AppContext, 'mailer' | 'background' | 'now'>,
  user: Pick<UserRow, 'email' | 'username'>,
  kind: SignInAlertMail['kind'],
  origin: SignInOrigin,
): void {
  const device = describeUserAgent(origin.userAgent);
  const mail: SignInAlertMail = {
    kind,
    to: user.email,
    username: user.username,
    browser: device.browser,
    system: device.system,
    address: origin.address,
    at: ctx.now(),
  };
  ctx.background.run(`${kind} mail`, () => ctx.mailer.sendSignInAlert(mail));
}
