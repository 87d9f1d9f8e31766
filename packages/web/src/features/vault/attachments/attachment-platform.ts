import type { AttachmentPlatform, AttachmentSource, BinaryTransport } from '@lockit/client-core';
import { apiBaseUrl } from '@/config/env';
import { api } from '@/lib/http';

/** Bytes read per step from a picked file: a 100 MB file is never read whole. */
const READ_STEP = 1024 * 1024;

/** A ReadableStream read through its reader: Chromium's streams are not async-iterable. */
async function* readStream(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** The page's fetch for raw bodies, with the session's cookies like every other call. */
const pageBinaryTransport: BinaryTransport = async ({ method, url, headers, body }) => {
  const response = await fetch(url, {
    method,
    headers,
    credentials: 'include',
    ...(body !== undefined ? { body: body as Uint8Array<ArrayBuffer> } : {}),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: response.body ? readStream(response.body) : null,
    text: () => response.text(),
  };
};

/** The client core's attachment platform in this page. */
export const pageAttachmentPlatform: AttachmentPlatform = { api, binary: pageBinaryTransport, baseUrl: apiBaseUrl };

/** A picked file as the client core reads it: slice by slice, so it never sits whole in memory. */
export function fileSource(file: Blob & { name: string }): AttachmentSource {
  return {
    name: file.name,
    type: file.type,
    size: file.size,
    async *stream() {
      for (let at = 0; at < file.size; at += READ_STEP) {
        yield new Uint8Array(await readBlob(file.slice(at, at + READ_STEP)));
      }
    },
  };
}

/**
 * A Blob's bytes: `arrayBuffer()` where the platform has it (every browser Lockit supports),
 * else a FileReader (jsdom, which the component tests run in, has only that).
 */
export function readBlob(blob: Blob): Promise<ArrayBuffer> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsArrayBuffer(blob);
  });
}
