import { createReadStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import path from 'node:path';
import type { AttachmentStore } from './attachment-store';

/** Ids reach here checked by the route table (UUIDs) or made by the server; this keeps a path inside `root` anyway. */
const SAFE_NAME = /^[A-Za-z0-9-]+$/;

/**
 * Sealed content as one file per attachment, under `root/<user id>/<file id>`. A part is
 * written at its offset (positioned write), so a part sent again after a lost answer lands
 * where it belongs; reads stream from disk.
 */
export function createFileAttachmentStore(root: string): Omit<AttachmentStore, 'shared'> {
  function fileOf(userId: string, id: string): string {
    if (!SAFE_NAME.test(userId) || !SAFE_NAME.test(id)) throw new Error('An attachment path must be made of ids.');
    return path.join(root, userId, id);
  }

  return {
    async write(_trx, userId, id, offset, data) {
      const file = fileOf(userId, id);
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      const handle = await open(file, offset === 0 ? 'w' : 'r+', 0o600);
      try {
        let written = 0;
        while (written < data.length) {
          const { bytesWritten } = await handle.write(data, written, data.length - written, offset + written);
          written += bytesWritten;
        }
        await handle.sync();
      } finally {
        await handle.close();
      }
    },

    async *read(userId, id, size) {
      if (size === 0) return;
      yield* createReadStream(fileOf(userId, id), {
        start: 0,
        end: size - 1,
        highWaterMark: 256 * 1024,
      }) as AsyncIterable<Buffer>;
    },

    async discard(userId, ids) {
      await Promise.all(ids.map((id) => rm(fileOf(userId, id), { force: true })));
    },
  };
}
