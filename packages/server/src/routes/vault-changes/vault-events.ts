import type { OutgoingHttpHeaders } from 'node:http';
import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { HttpError, SIGN_IN_REQUIRED } from '../../http/http-error';
import { MESSAGES } from '../messages';

/**
 * GET /api/vault/events (Lockit's own, decision 0066): a Server-Sent Events stream of the
 * session's account. `ready` with the cursor the vault is at, then one `change` notice
 * `{ seq, id? }` per committed write of the vault (from any server process), a comment as a
 * heartbeat, and `end` with a reason before it closes (the session ended, the notice bus is
 * down, the server is closing). Nothing secret: ids and sequence numbers only. Authenticated by
 * the session cookie like every route; past the account's cap of open streams 429, while the
 * bus is down 503, both with `{ message }`.
 */
export const vaultEventsRoute: RoutePlugin = async (app, { ctx }) => {
  app.get(apiPaths.vaultEvents, async (request, reply) => {
    const { user, sessionId } = requireSession(request);
    const position = await ctx.repos.changes.position(user.id);
    if (!position) throw new HttpError(401, SIGN_IN_REQUIRED);
    // The headers hooks set so far (security headers, CORS) go out with the stream's own.
    const opened = ctx.live.open(user.id, sessionId, reply.raw, position.cursor, reply.getHeaders() as OutgoingHttpHeaders);
    if (opened === 'too-many') throw new HttpError(429, MESSAGES.tooManyLiveStreams);
    if (opened === 'unavailable') throw new HttpError(503, MESSAGES.liveUnavailable);
    // The stream is written by vault-streams.ts from now on, outside Fastify's reply.
    reply.hijack();
  });
};
