import path from 'node:path';
import type { DatabaseConfig } from '../config/app-config';
import type { Db, Executor } from '../db/schema';
import { createFileAttachmentStore } from './file-attachment-store';

/** Bytes per row on PostgreSQL, as for attachments: a download holds at most a few rows at once. */
const ROW_BYTES = 1024 * 1024;
const ROWS_PER_READ = 2;

/** A link whose file is to be freed: its owner (the SQLite folder) and its id. */
export interface SharedFileRef {
  userId: string;
  id: string;
}

/**
 * Where a shared file's sealed bytes live (decision 0081): the same storage as attachments,
 * beside SQLite in `<data folder>/share-files/<owner>/<share id>`, in `share_file_chunks` rows
 * on PostgreSQL (gone with the link's row by cascade). Only sealed bytes reach it.
 */
export interface ShareFileStore {
  /** Stores `data` at `offset` inside `trx`, which already advanced the row's `file_received` past it. */
  write(trx: Executor, userId: string, id: string, offset: number, data: Buffer): Promise<void>;
  /** The sealed bytes, `size` of them, in pieces of at most ~1 MiB: never the whole file at once. */
  read(userId: string, id: string, size: number): AsyncIterable<Buffer>;
  /** After the transaction that deleted these links committed: frees their bytes outside the database. */
  discard(links: readonly SharedFileRef[]): Promise<void>;
}

export function createShareFileStore(database: DatabaseConfig, db: Db): ShareFileStore {
  if (database.kind === 'postgres') return createPostgresShareFileStore(db);
  const files = createFileAttachmentStore(path.join(path.dirname(database.file), 'share-files'));
  return {
    write: (trx, userId, id, offset, data) => files.write(trx, userId, id, offset, data),
    read: (userId, id, size) => files.read(userId, id, size),
    async discard(links) {
      await Promise.all(links.map((link) => files.discard(link.userId, [link.id])));
    },
  };
}

function createPostgresShareFileStore(db: Db): ShareFileStore {
  return {
    async write(trx, _userId, id, offset, data) {
      for (let at = 0; at < data.length; at += ROW_BYTES) {
        await trx
          .insertInto('share_file_chunks')
          .values({ share_id: id, byte_offset: offset + at, data: data.subarray(at, at + ROW_BYTES) })
          .execute();
      }
    },

    async *read(_userId, id, size) {
      let next = 0;
      while (next < size) {
        const rows = await db
          .selectFrom('share_file_chunks')
          .select(['byte_offset', 'data'])
          .where('share_id', '=', id)
          .where('byte_offset', '>=', next)
          .orderBy('byte_offset', 'asc')
          .limit(ROWS_PER_READ)
          .execute();
        if (rows.length === 0) throw new Error(`Shared file ${id} is missing content from byte ${next}.`);
        for (const row of rows) {
          if (Number(row.byte_offset) !== next) throw new Error(`Shared file ${id} has a gap at byte ${next}.`);
          yield row.data;
          next += row.data.length;
        }
      }
    },

    // The rows went with the transaction that deleted the links.
    async discard() {},
  };
}
