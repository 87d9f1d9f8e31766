import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { requireSession } from '../../auth/require-session';
import { MESSAGES } from '../messages';
import { toAccountDocumentWire } from './account-document-wire';

/** GET /api/account/documents/{kind}: the caller's document of that kind as a ciphertext, or `data: null`. */
export const getAccountDocumentRoute: RoutePlugin = async (app, { ctx }) => {
  app.get(`${apiPaths.accountDocument('')}:kind`, async (request) => {
    const { user } = requireSession(request);
    const { kind } = routeInput(request, 'get-account-document').params;
    const row = await ctx.repos.accountDocuments.find(user.id, kind);
    return { message: MESSAGES.success, data: row ? toAccountDocumentWire(row) : null };
  });
};
