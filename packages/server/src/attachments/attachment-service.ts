import type { AppContext } from '../app-context';
import type { AttachmentRow } from '../db/repositories/attachments-repository';
import { HttpError } from '../http/http-error';
import { checkAttachmentRoom } from './attachment-limits';
import { ATTACHMENT_MESSAGES as M } from './attachment-messages';

type Ctx = Pick<AppContext, 'db' | 'repos' | 'config' | 'now' | 'attachments'>;

/** An upload untouched this long is abandoned: its room and its bytes are given back at the next create. */
export const ABANDONED_UPLOAD_MS = 24 * 60 * 60 * 1000;

export interface NewAttachment {
  id: string;
  wrappedKey: string;
  metadata: string;
  size: number;
  /** The key epoch the file key was wrapped under, when the client said. */
  keyEpoch?: number | undefined;
}

/** The entry must be the caller's; `live` also refuses one in Trash (no new files there). */
async function requireEntry(ctx: Ctx, userId: string, entryId: string, live: boolean): Promise<void> {
  const entry = await ctx.repos.entries.find(userId, entryId);
  if (!entry) throw new HttpError(404, M.entryNotFound);
  if (live && entry.deleted_at !== null) throw new HttpError(409, M.entryInTrash);
}

/** The caller's file of this entry; an unfinished one only when `finished` is false. */
export async function requireAttachment(
  ctx: Ctx,
  userId: string,
  entryId: string,
  id: string,
  finished: boolean | 'any',
): Promise<AttachmentRow> {
  const row = await ctx.repos.attachments.find(userId, id);
  if (!row || row.entry_id !== entryId) throw new HttpError(404, M.fileNotFound);
  if (finished === true && row.finished_at === null) throw new HttpError(404, M.fileNotFound);
  if (finished === false && row.finished_at !== null) throw new HttpError(409, M.uploadFinished);
  return row;
}

export async function listAttachments(ctx: Ctx, userId: string, entryId: string) {
  await requireEntry(ctx, userId, entryId, false);
  const [rows, usedBytes] = await Promise.all([
    ctx.repos.attachments.listFinished(userId, entryId),
    ctx.repos.attachments.usedBytes(userId),
  ]);
  return { rows, usedBytes };
}

/**
 * Starts an upload after the limits: the row holds its room from now on, so two uploads at
 * once cannot both pass the account's limit on SQLite (one writer); on PostgreSQL two
 * creates racing may pass it by one file. Abandoned uploads of the account are cleared first.
 * A file key wrapped under another key epoch than the account's is refused, checked with the
 * users row held, so a key rotation's commit never misses a file (see lockedKeyEpoch).
 */
export async function createAttachment(ctx: Ctx, userId: string, entryId: string, file: NewAttachment): Promise<AttachmentRow> {
  await requireEntry(ctx, userId, entryId, true);
  const now = ctx.now();
  const stale = await ctx.repos.attachments.staleUploads(userId, now - ABANDONED_UPLOAD_MS);
  if (stale.length > 0) {
    await ctx.repos.attachments.delete(userId, stale);
    await ctx.attachments.discard(userId, stale);
  }
  return ctx.db.transaction().execute(async (trx) => {
    const keyEpoch = await ctx.repos.attachments.lockedKeyEpoch(userId, trx);
    if (file.keyEpoch !== undefined && keyEpoch !== file.keyEpoch) throw new HttpError(409, M.keyRotated);
    if (await ctx.repos.attachments.find(userId, file.id, trx)) throw new HttpError(409, M.alreadyExists);
    checkAttachmentRoom(ctx.config.attachmentLimits, file.size, await ctx.repos.attachments.usedBytes(userId, trx));
    const row = {
      user_id: userId,
      id: file.id,
      entry_id: entryId,
      wrapped_key: file.wrappedKey,
      metadata: file.metadata,
      size: file.size,
      finished_at: null,
      created_at: now,
      updated_at: now,
    };
    await ctx.repos.attachments.insert(row, trx);
    return { ...row, received: 0 };
  });
}

/** Appends `data` at `offset`: only at exactly the bytes received so far, never past the size announced. */
export async function storePart(
  ctx: Ctx,
  userId: string,
  entryId: string,
  id: string,
  offset: number,
  data: Buffer,
): Promise<number> {
  const row = await requireAttachment(ctx, userId, entryId, id, false);
  if (data.length === 0) throw new HttpError(400, M.emptyPart);
  if (offset !== row.received) throw new HttpError(409, M.wrongOffset(row.received, offset));
  if (offset + data.length > row.size) throw new HttpError(413, M.pastAnnounced);
  const to = offset + data.length;
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await ctx.repos.attachments.advance(userId, id, offset, to, ctx.now(), trx)))
      throw new HttpError(409, M.movedMeanwhile);
    await ctx.attachments.write(trx, userId, id, offset, data);
  });
  return to;
}

export async function finishAttachment(ctx: Ctx, userId: string, entryId: string, id: string): Promise<AttachmentRow> {
  const row = await requireAttachment(ctx, userId, entryId, id, false);
  if (!(await ctx.repos.attachments.finish(userId, id, ctx.now())))
    throw new HttpError(409, M.notAllArrived(row.received, row.size));
  return requireAttachment(ctx, userId, entryId, id, true);
}

export async function renameAttachment(ctx: Ctx, userId: string, entryId: string, id: string, metadata: string) {
  await requireAttachment(ctx, userId, entryId, id, true);
  if (!(await ctx.repos.attachments.rename(userId, id, metadata, ctx.now()))) throw new HttpError(404, M.fileNotFound);
  return requireAttachment(ctx, userId, entryId, id, true);
}

export async function deleteAttachment(ctx: Ctx, userId: string, entryId: string, id: string): Promise<void> {
  await requireAttachment(ctx, userId, entryId, id, 'any');
  await ctx.db.transaction().execute((trx) => ctx.repos.attachments.delete(userId, [id], trx));
  await ctx.attachments.discard(userId, [id]);
}

export function attachmentWire(row: AttachmentRow) {
  return {
    id: row.id,
    entryId: row.entry_id,
    wrappedKey: row.wrapped_key,
    metadata: row.metadata,
    size: Number(row.size),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
