import { createHmac, randomBytes } from 'node:crypto';
import { macMatches } from '../signed-value';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiPaths } from '@lockit/contract';
import type { AppConfig } from '../../config/app-config';
import { cookieSecureFor } from '../session-cookies';

/**
 * "Remember this browser": after a sign-in that passed its second factor with `remember`, the
 * browser gets `v1.<userId>.<epoch>.<expiresAt>.<nonce>.<mac>`, the MAC an HMAC-SHA256 under
 * the server secret. A sign-in to that account carrying it skips the second factor, and only
 * that: the master password is still checked.
 *
 * Security invariants: valid only for the user it names, only while that user's
 * two_factor_epoch is the one it names (raised on any factor change, new recovery codes,
 * "forget browsers" and password change), and only until it expires. Sent to the sign-in
 * call alone (Path), HttpOnly, SameSite=Strict, Secure per COOKIE_SECURE.
 */
export const REMEMBER_COOKIE = 'lockit_remember';
const DAY_MS = 24 * 60 * 60 * 1000;

export interface RememberedBrowser {
  userId: string;
  epoch: number;
}

function mac(secret: Buffer, payload: string): Buffer {
  return createHmac('sha256', secret).update(`remember-browser|${payload}`).digest();
}

export function makeRememberCookieValue(secret: Buffer, userId: string, epoch: number, expiresAt: number): string {
  const payload = `v1.${userId}.${epoch.toString(36)}.${expiresAt.toString(36)}.${randomBytes(16).toString('base64url')}`;
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

/** The user and epoch a cookie names when its MAC is right and it has not expired; else undefined. */
export function readRememberCookie(secret: Buffer, value: string | undefined, now: number): RememberedBrowser | undefined {
  if (!value || value.length > 256) return undefined;
  const parts = value.split('.');
  if (parts.length !== 6 || parts[0] !== 'v1') return undefined;
  const [, userId, epoch, expires, , signature] = parts as [string, string, string, string, string, string];
  const expected = mac(secret, parts.slice(0, 5).join('.'));
  if (!macMatches(signature, expected)) return undefined;
  if (Number.parseInt(expires, 36) <= now) return undefined;
  return { userId, epoch: Number.parseInt(epoch, 36) };
}

/** Whether this sign-in request carries a valid remember cookie for exactly this user at this epoch. */
export function isRememberedFor(
  request: FastifyRequest,
  config: AppConfig,
  user: { id: string; two_factor_epoch: number },
  now: number,
): boolean {
  if (config.rememberBrowserDays <= 0) return false;
  const remembered = readRememberCookie(config.serverSecret, request.cookies[REMEMBER_COOKIE], now);
  return remembered !== undefined && remembered.userId === user.id && remembered.epoch === user.two_factor_epoch;
}

/** Sets the cookie for REMEMBER_BROWSER_DAYS; does nothing when the operator set 0. */
export function setRememberCookie(reply: FastifyReply, config: AppConfig, userId: string, epoch: number, now: number): void {
  if (config.rememberBrowserDays <= 0) return;
  const lifetimeMs = config.rememberBrowserDays * DAY_MS;
  reply.setCookie(REMEMBER_COOKIE, makeRememberCookieValue(config.serverSecret, userId, epoch, now + lifetimeMs), {
    httpOnly: true,
    sameSite: 'strict',
    secure: cookieSecureFor(reply.request, config),
    path: apiPaths.login,
    maxAge: Math.floor(lifetimeMs / 1000),
  });
}
