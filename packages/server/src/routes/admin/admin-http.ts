import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { ADMIN_API_PREFIX } from '@lockit/contract';
import type { AdminContext } from '../../admin/admin-context';
import { ADMIN_IDLE_MS, type AdminSessionLimits } from '../../admin/admin-sessions';
import type { AppConfig } from '../../config/app-config';
import { HttpError } from '../../http/http-error';
import { ADMIN_MESSAGES } from './admin-messages';
import { cookieSecureFor } from '../../auth/session-cookies';

export const ADMIN_COOKIE = 'lockit_admin';

/**
 * The admin cookie: HttpOnly, SameSite=Strict, Secure per COOKIE_SECURE like the session
 * cookies, and sent only to the admin API (its path), never to vault routes.
 */
function cookieOptions(request: FastifyRequest, config: AppConfig) {
  const secure = cookieSecureFor(request, config);
  return { httpOnly: true, sameSite: 'strict' as const, path: ADMIN_API_PREFIX, secure };
}

export function setAdminCookie(reply: FastifyReply, config: AppConfig, token: string, maxAgeMs: number): void {
  reply.setCookie(ADMIN_COOKIE, token, { ...cookieOptions(reply.request, config), maxAge: Math.floor(maxAgeMs / 1000) });
}

export function clearAdminCookie(reply: FastifyReply, config: AppConfig): void {
  reply.clearCookie(ADMIN_COOKIE, cookieOptions(reply.request, config));
}

/**
 * Route options of every admin route but sign-in and sign-out: no user session (`public` for
 * the user guard), and instead a valid admin session, checked after the origin check.
 */
export function adminOnly(admin: AdminContext) {
  const requireAdmin: onRequestHookHandler = async (request) => {
    const session = await admin.sessions.authenticate(request.cookies[ADMIN_COOKIE]);
    if (!session) throw new HttpError(401, ADMIN_MESSAGES.signInRequired);
    sessions.set(request, session);
  };
  return { config: { public: true }, onRequest: requireAdmin };
}

const sessions = new WeakMap<FastifyRequest, AdminSessionLimits>();

/** The admin session the guard found for this request. */
export function adminSessionOf(request: FastifyRequest): AdminSessionLimits {
  const session = sessions.get(request);
  if (!session) throw new HttpError(401, ADMIN_MESSAGES.signInRequired);
  return session;
}

export const iso = (epochMs: number) => new Date(epochMs).toISOString();

export function sessionInfo(expiresAt: number) {
  return { expiresAt: iso(expiresAt), idleMinutes: ADMIN_IDLE_MS / 60_000 };
}
