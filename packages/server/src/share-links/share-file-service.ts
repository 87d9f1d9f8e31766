import type { AppContext } from '../app-context';
import { checkAttachmentRoom } from '../attachments/attachment-limits';
import { ATTACHMENT_MESSAGES as A } from '../attachments/attachment-messages';
import type { SharedFileRef } from '../attachments/share-file-store';
import type { ShareLinkSummary } from '../db/repositories/share-links-repository';
import type { Executor } from '../db/schema';
import { HttpError } from '../http/http-error';
import { MESSAGES } from '../routes/messages';

type Ctx = Pick<AppContext, 'db' | 'repos' | 'config' | 'now' | 'attachments'>;

/**
 * A file link whose upload has not finished this long after its creation is abandoned (its
 * browser went away): its room and bytes are given back at the owner's next file share.
 */
export const ABANDONED_SHARE_UPLOAD_MS = 24 * 60 * 60 * 1000;

/** Deletes the owner's abandoned file uploads and frees their bytes, before a new file share takes room. */
export async function clearAbandonedShareUploads(ctx: Ctx, userId: string): Promise<void> {
  const ids = await ctx.repos.shareLinks.deleteStaleUploads(userId, ctx.now() - ABANDONED_SHARE_UPLOAD_MS);
  await discardShareFiles(
    ctx,
    ids.map((id) => ({ userId, id })),
  );
}

/**
 * Refuses (413) a shared file that is past the per-file limit or would take the account past
 * its storage: a shared file counts against the same limit as the account's attachments, from
 * the link's creation until the link is gone. Run inside the transaction that inserts the link.
 */
export async function checkShareFileRoom(ctx: Ctx, userId: string, sealedSize: number, trx: Executor): Promise<void> {
  checkAttachmentRoom(ctx.config.attachmentLimits, sealedSize, await ctx.repos.attachments.usedBytes(userId, trx));
}

/** The caller's file link whose upload is under way; 404 for anyone else's or none, 409 once finished. */
async function requireUploadingFile(ctx: Ctx, userId: string, id: string): Promise<ShareLinkSummary> {
  const row = await ctx.repos.shareLinks.findSummary(id);
  if (!row || row.user_id !== userId) throw new HttpError(404, MESSAGES.shareLinkNotFound);
  if (row.file_size === null) throw new HttpError(409, MESSAGES.shareFileNotFile);
  if (row.file_finished_at !== null) throw new HttpError(409, MESSAGES.shareFileFinished);
  return row;
}

/** Appends `data` at `offset` of the caller's shared file: exactly at the bytes received so far, never past its size. */
export async function storeShareFilePart(ctx: Ctx, userId: string, id: string, offset: number, data: Buffer): Promise<number> {
  const row = await requireUploadingFile(ctx, userId, id);
  const received = Number(row.file_received);
  if (data.length === 0) throw new HttpError(400, A.emptyPart);
  if (offset !== received) throw new HttpError(409, A.wrongOffset(received, offset));
  const to = offset + data.length;
  if (to > Number(row.file_size)) throw new HttpError(413, A.pastAnnounced);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await ctx.repos.shareLinks.advanceFile(userId, id, offset, to, trx))) throw new HttpError(409, A.movedMeanwhile);
    await ctx.attachments.shared.write(trx, userId, id, offset, data);
  });
  return to;
}

/** Ends the upload of the caller's shared file once every byte arrived; the link opens from then on. */
export async function finishShareFile(ctx: Ctx, userId: string, id: string): Promise<ShareLinkSummary> {
  const row = await requireUploadingFile(ctx, userId, id);
  if (!(await ctx.repos.shareLinks.finishFile(userId, id, ctx.now()))) {
    throw new HttpError(409, A.notAllArrived(Number(row.file_received), Number(row.file_size)));
  }
  const finished = await ctx.repos.shareLinks.findSummary(id);
  if (!finished) throw new HttpError(404, MESSAGES.shareLinkNotFound);
  return finished;
}

/** Frees the bytes of links whose rows are gone (SQLite's files; PostgreSQL's rows went with them). */
export async function discardShareFiles(ctx: Pick<AppContext, 'attachments'>, links: readonly SharedFileRef[]): Promise<void> {
  if (links.length > 0) await ctx.attachments.shared.discard(links);
}

/** A link the recipient may see: a text, an item, or a file whose upload finished. */
export function isOpenable(row: ShareLinkSummary): boolean {
  return row.file_size === null || row.file_finished_at !== null;
}
