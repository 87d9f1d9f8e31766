import { ACCOUNT_DOCUMENT_BODY_LIMIT, apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { requireSession } from '../../auth/require-session';
import { isUniqueViolation } from '../../db/create-database';
import type { StoredAccountDocument } from '../../db/repositories/account-documents-repository';
import { HttpError } from '../../http/http-error';
import { MESSAGES } from '../messages';
import { storableRevision } from '../revision-input';
import { toAccountDocumentWire } from './account-document-wire';

/**
 * PUT /api/account/documents/{kind} `{ ciphertext, revision }`: saves the caller's document
 * of that kind, only if it is still at `revision` (0: there is none yet). Otherwise 409 with
 * the document as it is now (`data`, null if there is none), so the client can re-apply its
 * change to it. The server checks only that the body is a ciphertext within the kind's cap.
 */
export const putAccountDocumentRoute: RoutePlugin = async (app, { ctx }) => {
  app.put(`${apiPaths.accountDocument('')}:kind`, { bodyLimit: ACCOUNT_DOCUMENT_BODY_LIMIT }, async (request) => {
    const { user } = requireSession(request);
    const {
      params: { kind },
      body,
    } = routeInput(request, 'put-account-document');
    const revision = storableRevision(body.revision);
    const now = ctx.now();
    let written = false;
    if (revision === 0) {
      try {
        await ctx.repos.accountDocuments.insert(user.id, kind, body.ciphertext, now);
        written = true;
      } catch (error) {
        // Someone created it first: a stale revision like any other.
        if (!isUniqueViolation(error)) throw error;
      }
    } else {
      written = await ctx.repos.accountDocuments.replace(user.id, kind, revision, body.ciphertext, now);
    }
    if (!written) {
      const current = await ctx.repos.accountDocuments.find(user.id, kind);
      throw new HttpError(409, MESSAGES.accountDocumentChangedElsewhere, {
        data: current ? toAccountDocumentWire(current) : null,
      });
    }
    const saved: StoredAccountDocument = { kind, ciphertext: body.ciphertext, revision: revision + 1, updated_at: now };
    return { message: MESSAGES.accountDocumentSaved, data: toAccountDocumentWire(saved) };
  });
};
