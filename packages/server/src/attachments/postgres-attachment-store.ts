import type { Db } from '../db/schema';
import type { AttachmentStore } from './attachment-store';

/** Bytes per row: a download holds at most a few rows at once. */
const ROW_BYTES = 1024 * 1024;
/** Rows fetched per query while streaming. */
const ROWS_PER_READ = 2;

/**
 * Sealed content as `attachment_chunks` rows (bytea, ≤ 1 MiB each) keyed by byte offset, so
 * every server process sees the same files. A part is written in the transaction that
 * advanced the upload; a download reads the rows a few at a time by offset (keyset), never
 * the whole file.
 */
export function createPostgresAttachmentStore(db: Db): Omit<AttachmentStore, 'shared'> {
  return {
    async write(trx, userId, id, offset, data) {
      for (let at = 0; at < data.length; at += ROW_BYTES) {
        await trx
          .insertInto('attachment_chunks')
          .values({ user_id: userId, attachment_id: id, byte_offset: offset + at, data: data.subarray(at, at + ROW_BYTES) })
          .execute();
      }
    },

    async *read(userId, id, size) {
      let next = 0;
      while (next < size) {
        const rows = await db
          .selectFrom('attachment_chunks')
          .select(['byte_offset', 'data'])
          .where('user_id', '=', userId)
          .where('attachment_id', '=', id)
          .where('byte_offset', '>=', next)
          .orderBy('byte_offset', 'asc')
          .limit(ROWS_PER_READ)
          .execute();
        if (rows.length === 0) throw new Error(`Attachment ${id} is missing content from byte ${next}.`);
        for (const row of rows) {
          if (Number(row.byte_offset) !== next) throw new Error(`Attachment ${id} has a gap at byte ${next}.`);
          yield row.data;
          next += row.data.length;
        }
      }
    },

    // The rows went with the transaction that deleted the attachments.
    async discard() {},
  };
}
