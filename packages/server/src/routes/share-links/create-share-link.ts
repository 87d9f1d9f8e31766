import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { HttpError } from '../../http/http-error';
import { routeInput } from '../../http/route-input';
import { MESSAGES } from '../messages';
import { checkShareFileRoom, clearAbandonedShareUploads } from '../../share-links/share-file-service';
import { MAX_LIVE_SHARE_LINKS, toShareLinkWire } from './share-link-wire';

/**
 * POST /api/share-links: stores a share the browser sealed (decision 0078). The server gets
 * the ciphertext, the key check and the password's salt, never the link's key or the password.
 * 403 when the operator turned share links off; 409 when the id is taken (the browser made it).
 * With `fileSize` (decision 0081) the link carries a file whose sealed bytes follow: its size
 * is checked against the attachment limits (413) and held from now on, in the same transaction
 * as the insert; the link opens only once the upload finished. An upload abandoned for a day
 * is cleared first, so a browser that went away holds no room for long.
 */
export const createShareLinkRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.shareLinks, async (request, reply) => {
    const { user } = requireSession(request);
    const { body } = routeInput(request, 'create-share-link');
    if (!ctx.config.shareLinks.enabled) throw new HttpError(403, MESSAGES.shareLinksOff);
    const now = ctx.now();
    if ((await ctx.repos.shareLinks.countLive(user.id, now)) >= MAX_LIVE_SHARE_LINKS) {
      throw new HttpError(409, MESSAGES.tooManyShareLinks);
    }
    const row = {
      id: body.id,
      user_id: user.id,
      ciphertext: body.ciphertext,
      key_check: body.keyCheck,
      password_salt: body.passwordSalt,
      max_openings: body.maxOpenings,
      openings_left: body.maxOpenings,
      delete_after_opening: body.deleteAfterOpening ? 1 : 0,
      created_at: now,
      expires_at: now + body.expiresInSeconds * 1000,
      owner_label: body.label ?? null,
      file_size: body.fileSize ?? null,
      file_finished_at: null,
    };
    const fileSize = body.fileSize;
    if (fileSize !== undefined) await clearAbandonedShareUploads(ctx, user.id);
    const inserted =
      fileSize === undefined
        ? await ctx.repos.shareLinks.insert(row)
        : await ctx.db.transaction().execute(async (trx) => {
            await checkShareFileRoom(ctx, user.id, fileSize, trx);
            return ctx.repos.shareLinks.insert(row, trx);
          });
    if (!inserted) throw new HttpError(409, MESSAGES.shareLinkIdTaken);
    return reply.code(201).send({ message: MESSAGES.shareLinkCreated, data: toShareLinkWire({ ...row, file_received: 0 }) });
  });
};
