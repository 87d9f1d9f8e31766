import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { ifNoneMatchHits } from '../../http/if-none-match';
import { MESSAGES } from '../messages';
import { toEntryWire } from './entry-wire';

/**
 * GET /api/passwords/show/user-passwords: the caller's entries, live and in Trash (with
 * `deletedAt`, so the Trash view needs no second call), oldest first; never history. The answer is
 * serialized once per vault revision (the revision came with the session, before this read)
 * and reused until an entry write bumps it; see vault/vault-list-cache.ts. It carries an ETag of
 * its bytes, and a client that already holds them (If-None-Match) gets a bodiless 304.
 */
export const listEntriesRoute: RoutePlugin = async (app, { ctx }) => {
  app.get(apiPaths.listEntries, async (request, reply) => {
    const { user } = requireSession(request);
    let answer = ctx.vaultLists.get(user.id, user.vault_revision);
    if (answer === undefined) {
      const rows = await ctx.repos.entries.listByUser(user.id);
      const body = Buffer.from(JSON.stringify({ message: MESSAGES.success, data: rows.map(toEntryWire) }));
      answer = ctx.vaultLists.set(user.id, user.vault_revision, body);
    }
    reply.header('etag', answer.etag);
    if (ifNoneMatchHits(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(answer.body);
  });
};
