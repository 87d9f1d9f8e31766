import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context';
import { setDeviceCookie } from '../device-cookies';
import { setSessionCookies } from '../session-cookies';
import { sessionClientOf, storedClient } from '../session-client';
import { setRememberCookie } from './remember-cookie';
import { queueSignInAlert } from './sign-in-alerts';
import { signInMailFor, type AdmittedUser } from '../sign-in-policy';

/** The spec's login data. */
export interface LoginData {
  username: string;
  email: string;
  protectedKey: string;
  /** The generation protectedKey was wrapped for. */
  keyGeneration: number;
  /** The key epoch of the vault key protectedKey holds (key rotations). */
  keyEpoch: number;
  /** The account id, which its passkeys carry as their user handle: a browser keys its memory of a passkey by it. */
  userId: string;
}

/**
 * Opens a session after every check of a sign-in has passed (password, and the second factor
 * when the account has one): session and device cookies, the remember-browser cookie when
 * asked for and the operator allows it (REMEMBER_BROWSER_DAYS > 0), and the mail the sign-in
 * policy names (sign-in-policy.ts).
 *
 * Only an account the sign-in policy admitted in this request gets here (`AdmittedUser`: the
 * type says so, a path that skips the policy does not compile). The remember cookie
 * names the user's two_factor_epoch as read in `user`: pass a row read during this request.
 */
export async function completeSignIn(
  ctx: Pick<AppContext, 'config' | 'sessions' | 'metrics' | 'now' | 'mailer' | 'background'>,
  request: FastifyRequest,
  reply: FastifyReply,
  user: AdmittedUser,
  options: { knownDevice: boolean; remember: boolean },
): Promise<LoginData> {
  const client = sessionClientOf(request);
  const tokens = await ctx.sessions.issue(user.id, client);
  setSessionCookies(reply, ctx.config, tokens);
  setDeviceCookie(reply, ctx.config, user.id, ctx.now());
  if (options.remember) setRememberCookie(reply, ctx.config, user.id, user.two_factor_epoch, ctx.now());
  ctx.metrics.signInSucceeded();
  const mail = signInMailFor(user, options.knownDevice);
  if (mail) queueSignInAlert(ctx, user, mail, storedClient(client));
  return {
    username: user.username,
    email: user.email,
    protectedKey: user.protected_key,
    keyGeneration: user.key_generation,
    keyEpoch: Number(user.key_epoch),
    userId: user.id,
  };
}
