import path from 'node:path';
import type { DatabaseConfig } from '../config/app-config';
import type { Db, Executor } from '../db/schema';
import { createFileAttachmentStore } from './file-attachment-store';
import { createPostgresAttachmentStore } from './postgres-attachment-store';
import { createShareFileStore, type ShareFileStore } from './share-file-store';

/**
 * Where sealed attachment content lives. Only sealed bytes reach it: the server cannot open
 * them, and the browser checks every chunk it reads back.
 *
 * - SQLite (one process): files under `<folder of the SQLite file>/attachments/<user>/<file>`.
 * - PostgreSQL (any number of processes): rows of `attachment_chunks`, so every process serves
 *   the same files.
 */
export interface AttachmentStore {
  /**
   * Stores `data` at `offset` of the file, inside `trx` (which has already advanced the row's
   * `received` past it): a failure here rolls the advance back, so `received` never counts a
   * byte that is not stored.
   */
  write(trx: Executor, userId: string, id: string, offset: number, data: Buffer): Promise<void>;
  /** The sealed content, `size` bytes, in pieces of at most ~1 MiB: never the whole file at once. */
  read(userId: string, id: string, size: number): AsyncIterable<Buffer>;
  /** After the transaction that deleted these rows committed: frees their content outside the database. */
  discard(userId: string, ids: readonly string[]): Promise<void>;
  /** Shared files' bytes (decision 0081), in the same storage, apart from the attachments'. */
  shared: ShareFileStore;
}

/** The store for this database: files beside SQLite, rows in PostgreSQL. */
export function createAttachmentStore(database: DatabaseConfig, db: Db): AttachmentStore {
  const shared = createShareFileStore(database, db);
  if (database.kind === 'postgres') return { ...createPostgresAttachmentStore(db), shared };
  return { ...createFileAttachmentStore(path.join(path.dirname(database.file), 'attachments')), shared };
}
