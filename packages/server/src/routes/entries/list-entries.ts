import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireAuth } from '../../auth/auth-plugin';
import { MESSAGES } from '../messages';
import { toEntryWire } from './entry-wire';

/**
 * GET /api/passwords/show/user-passwords: the caller's entries, oldest first. The answer is
 * serialized once per vault revision (the revision came with the session, before this read)
 * and reused until an entry write bumps it; see vault-list-cache.ts.
 */
export const listEntriesRoute: RoutePlugin = async (app, { ctx }) => {
  app.get(apiPaths.listEntries, async (request, reply) => {
    const { user } = requireAuth(request);
    reply.type('application/json; charset=utf-8');
    const cached = ctx.vaultLists.get(user.id, user.vault_revision);
    if (cached !== undefined) return cached;
    const rows = await ctx.repos.entries.listByUser(user.id);
    const body = Buffer.from(JSON.stringify({ message: MESSAGES.success, data: rows.map(toEntryWire) }));
    ctx.vaultLists.set(user.id, user.vault_revision, body);
    return body;
  });
};
