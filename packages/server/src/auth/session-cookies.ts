import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CookieSerializeOptions } from '@fastify/cookie';
import { SESSION_HINT_COOKIE } from '@lockit/contract';
import type { AppConfig } from '../config/app-config';

export const ACCESS_COOKIE = 'lockit_access';
export const REFRESH_COOKIE = 'lockit_refresh';

export interface IssuedTokens {
  /** When the tokens were made; cookie lifetimes count from here. */
  issuedAt: number;
  accessToken: string;
  accessExpiresAt: number;
  refreshToken: string;
  refreshExpiresAt: number;
}

/** Secure per COOKIE_SECURE: always, never, or when this request came over HTTPS (auto). */
export function cookieSecureFor(request: FastifyRequest, config: AppConfig): boolean {
  return config.cookieSecure === 'always' || (config.cookieSecure === 'auto' && request.protocol === 'https');
}

/**
 * Cookie settings, in one place. HttpOnly: scripts (and so XSS) cannot read the tokens.
 * SameSite=Strict: no cross-site request carries them. Secure per COOKIE_SECURE.
 */
function baseOptions(request: FastifyRequest, config: AppConfig): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'strict', path: '/', secure: cookieSecureFor(request, config) };
}

/**
 * The session cookies and, beside them, the hint cookie: `1` and nothing else, readable by
 * scripts, living exactly as long as the refresh cookie. Its absence tells the web app there
 * is surely no session, so a signed-out visit sends no call that can only answer 401. It is
 * never read here: the tokens alone decide what a request may do.
 */
export function setSessionCookies(reply: FastifyReply, config: AppConfig, tokens: IssuedTokens): void {
  const options = baseOptions(reply.request, config);
  const refreshMaxAge = Math.max(1, Math.floor((tokens.refreshExpiresAt - tokens.issuedAt) / 1000));
  reply.setCookie(ACCESS_COOKIE, tokens.accessToken, {
    ...options,
    maxAge: Math.max(1, Math.floor((tokens.accessExpiresAt - tokens.issuedAt) / 1000)),
  });
  reply.setCookie(REFRESH_COOKIE, tokens.refreshToken, { ...options, maxAge: refreshMaxAge });
  reply.setCookie(SESSION_HINT_COOKIE, '1', { ...options, httpOnly: false, maxAge: refreshMaxAge });
}

export function clearSessionCookies(reply: FastifyReply, config: AppConfig): void {
  const options = baseOptions(reply.request, config);
  reply.clearCookie(ACCESS_COOKIE, options);
  reply.clearCookie(REFRESH_COOKIE, options);
  reply.clearCookie(SESSION_HINT_COOKIE, { ...options, httpOnly: false });
}
