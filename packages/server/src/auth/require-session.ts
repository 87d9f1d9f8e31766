import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UserRow, UsersRepository } from '../db/repositories/users-repository';
import { HttpError, SIGN_IN_REQUIRED } from '../http/http-error';
import { ACCESS_COOKIE } from './session-cookies';
import type { AuthenticatedSession, SessionService } from './session-service';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Marks a route as reachable without a session. Every other route requires one. */
    public?: boolean;
  }
  interface FastifyRequest {
    auth: AuthenticatedSession | null;
  }
}

/**
 * The session guard: an onRequest hook on the root instance (a plain function, not an
 * encapsulated plugin, so it reaches every route). Deny by default: every route needs a valid
 * session unless its config says `public: true`. Unknown paths fall through to the not-found
 * handler, which reveals nothing.
 */
export function installSessionGuard(app: FastifyInstance, sessions: SessionService): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    if (request.is404 || request.routeOptions.config.public === true) return;
    request.auth = await sessions.authenticate(request.cookies[ACCESS_COOKIE], request.ip);
    if (!request.auth) throw new HttpError(401, SIGN_IN_REQUIRED);
  });
}

/** The session of a protected route (the hook has already refused requests without one). */
export function requireSession(request: FastifyRequest): AuthenticatedSession {
  if (!request.auth) throw new HttpError(401, SIGN_IN_REQUIRED);
  return request.auth;
}

/**
 * The signed-in user's whole row, for the few routes that need more than the session lookup
 * reads (hashes, KDF parameters, wrapped key). An account deleted since then is signed out.
 */
export async function loadSignedInUser(request: FastifyRequest, users: UsersRepository): Promise<UserRow> {
  const user = await users.findById(requireSession(request).user.id);
  if (!user) throw new HttpError(401, SIGN_IN_REQUIRED);
  return user;
}
