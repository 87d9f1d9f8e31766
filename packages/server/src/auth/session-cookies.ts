import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CookieSerializeOptions } from '@fastify/cookie';
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

/**
 * Cookie settings, in one place. HttpOnly: scripts (and so XSS) cannot read the tokens.
 * SameSite=Strict: no cross-site request carries them. Secure per COOKIE_SECURE.
 */
function baseOptions(request: FastifyRequest, config: AppConfig): CookieSerializeOptions {
  const secure = config.cookieSecure === 'always' || (config.cookieSecure === 'auto' && request.protocol === 'https');
  return { httpOnly: true, sameSite: 'strict', path: '/', secure };
}

export function setSessionCookies(
  reply: FastifyReply,
  config: AppConfig,
  tokens: IssuedTokens,
): void {
  const options = baseOptions(reply.request, config);
  reply.setCookie(ACCESS_COOKIE, tokens.accessToken, {
    ...options,
    maxAge: Math.max(1, Math.floor((tokens.accessExpiresAt - tokens.issuedAt) / 1000)),
  });
  reply.setCookie(REFRESH_COOKIE, tokens.refreshToken, {
    ...options,
    maxAge: Math.max(1, Math.floor((tokens.refreshExpiresAt - tokens.issuedAt) / 1000)),
  });
}

export function clearSessionCookies(reply: FastifyReply, config: AppConfig): void {
  const options = baseOptions(reply.request, config);
  reply.clearCookie(ACCESS_COOKIE, options);
  reply.clearCookie(REFRESH_COOKIE, options);
}
