import { sendBinary, type AttachmentPlatform, type AttachmentSource, type ProgressListener } from '@lockit/client-core';
import { apiPaths, ATTACHMENT_PART_MAX_BYTES } from '@lockit/contract';
import { openSharedFileStream, sealSharedFileStream, sealedAttachmentSize } from '@lockit/crypto';

/**
 * Seals `source` chunk by chunk under the share's key and uploads it to share `id` (made with
 * `fileSize` = its sealed size), in parts of at most ATTACHMENT_PART_MAX_BYTES, then finishes
 * it: at most one part and two chunks of the file are in memory, whatever its size. Only sealed
 * bytes leave the device.
 */
export async function uploadSharedFile(
  platform: AttachmentPlatform,
  id: string,
  key: CryptoKey,
  source: AttachmentSource,
  onProgress?: ProgressListener,
): Promise<void> {
  const size = sealedAttachmentSize(source.size);
  const part = new Uint8Array(Math.min(ATTACHMENT_PART_MAX_BYTES, size));
  let filled = 0;
  let offset = 0;
  const flush = async () => {
    const url = `${platform.baseUrl}${apiPaths.shareLinkContent(id)}?offset=${offset}`;
    const body = part.subarray(0, filled);
    await sendBinary(platform, { method: 'PUT', url, headers: { 'content-type': 'application/octet-stream' }, body });
    offset += filled;
    filled = 0;
    onProgress?.(Math.min(source.size, offset), source.size);
  };
  for await (const chunk of sealSharedFileStream(key, id, source.stream(), source.size)) {
    if (filled + chunk.length > part.length) await flush();
    part.set(chunk, filled);
    filled += chunk.length;
  }
  if (filled > 0) await flush();
  await platform.api.call('finish-share-file', { params: { id } });
}

/**
 * A shared file's plaintext as it arrives, for the ticket its opening gave: each chunk is
 * checked for this share, its place and whether it is the last, and the file must end exactly
 * at the size sealed in the share. Throws ShareOpenError('tampered') on anything else.
 *
 * Security invariant: pieces yielded before a throw are not the file; the caller keeps them
 * until the generator finishes and discards them all on an error, never saving them.
 */
export async function* downloadSharedFile(
  platform: Pick<AttachmentPlatform, 'binary' | 'baseUrl' | 'api'>,
  share: { id: string; key: CryptoKey; size: number; ticket: string },
  onProgress?: ProgressListener,
): AsyncGenerator<Uint8Array> {
  const response = await sendBinary(platform as AttachmentPlatform, {
    method: 'POST',
    url: `${platform.baseUrl}${apiPaths.sharedFile(share.id)}`,
    headers: { 'content-type': 'application/json', accept: 'application/octet-stream' },
    body: new TextEncoder().encode(JSON.stringify({ ticket: share.ticket })),
  });
  let done = 0;
  for await (const piece of openSharedFileStream(share.key, share.id, response.body ?? empty(), share.size)) {
    done += piece.length;
    onProgress?.(done, share.size);
    yield piece;
  }
}

async function* empty(): AsyncGenerator<Uint8Array> {}
