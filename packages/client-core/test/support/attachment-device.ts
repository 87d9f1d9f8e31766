import { routeTable } from '@lockit/contract/routes';
import type { ApiClient as BrowserStandIn } from '@lockit/test-support';
import { ApiClient, type AttachmentPlatform, type BinaryTransport } from '../../src';

/**
 * Node's fetch as the attachments' raw transport, over the cookies of a browser stand-in (as a
 * page's fetch with credentials): bodies go out as bytes and answers are read as they arrive.
 */
export function nodeBinaryTransport(cookies: BrowserStandIn): BinaryTransport {
  return async (request) => {
    const headers: Record<string, string> = { ...request.headers, cookie: cookies.cookieHeader };
    if (cookies.forwardedFor) headers['x-forwarded-for'] = cookies.forwardedFor;
    const response = await fetch(request.url, {
      method: request.method,
      headers,
      ...(request.body ? { body: request.body } : {}),
    });
    const stream = response.body;
    return {
      status: response.status,
      headers: response.headers,
      body: stream ? (stream as unknown as AsyncIterable<Uint8Array>) : null,
      text: () => response.text(),
    };
  };
}

/** The attachment platform of a signed-in browser stand-in, talking to `baseUrl` (the server, or a lying one). */
export function attachmentPlatform(signedIn: BrowserStandIn, baseUrl: string): AttachmentPlatform {
  const cookies = signedIn.copyTo(baseUrl);
  const api = new ApiClient({ baseUrl, transport: cookies.transport, routes: () => routeTable });
  return { api, binary: nodeBinaryTransport(cookies), baseUrl };
}

/** A platform's file: `bytes` read in pieces of `step` bytes, as a Blob's stream gives them. */
export function bytesSource(name: string, bytes: Uint8Array, type = 'application/octet-stream', step = 100_000) {
  return {
    name,
    type,
    size: bytes.length,
    async *stream() {
      for (let at = 0; at < bytes.length; at += step) yield bytes.subarray(at, at + step);
    },
  };
}

export async function collect(source: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of source) parts.push(part);
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
