import { routeTable } from '@lockit/contract/routes';
import { ApiClient, type AttachmentPlatform, type BinaryTransport, type Transport } from '@lockit/client-core';

const BASE = 'http://localhost:3000';
const MiB = 1024 * 1024;

interface StoredFile {
  wire: { id: string; entryId: string; wrappedKey: string; metadata: string; size: number; createdAt: number; updatedAt: number };
  bytes: Uint8Array;
  finished: boolean;
}

/**
 * The server's side of the attachment routes in memory, as the contract describes it: it
 * keeps what it is sent and serves it back (the real server is proved in the client core's and
 * the end-to-end tests). `lie` rewrites a download, as a hostile server would.
 */
export function memoryServer(limits = { maxFileBytes: 100 * MiB, maxAccountBytes: 1024 * MiB }) {
  const files = new Map<string, StoredFile>();
  const sent: string[] = [];
  let lie: ((bytes: Uint8Array) => Uint8Array) | null = null;
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const used = () => [...files.values()].reduce((n, f) => n + f.wire.size, 0);

  const transport: Transport = async ({ method, url, body }) => {
    if (body) sent.push(body);
    const path = new URL(url).pathname.split('/').filter(Boolean); // api, attachments, entryId, id?, action?
    const [entryId, id, action] = [path[2]!, path[3], path[4]];
    if (method === 'GET' && !id) {
      const data = [...files.values()].filter((f) => f.finished && f.wire.entryId === entryId).map((f) => f.wire);
      return json(200, { message: 'OK', data, usage: { usedBytes: used(), ...limits } });
    }
    if (method === 'POST' && !id) {
      const request = JSON.parse(body!) as { id: string; wrappedKey: string; metadata: string; size: number };
      if (request.size > limits.maxFileBytes + 2000)
        return json(413, { message: 'This file is larger than the limit of 1 MB per file.' });
      const wire = {
        ...request,
        entryId,
        createdAt: Date.parse('2026-11-27T10:00:00Z'),
        updatedAt: Date.parse('2026-11-27T10:00:00Z'),
      };
      files.set(request.id, { wire, bytes: new Uint8Array(0), finished: false });
      return json(201, { message: 'Upload started', data: wire });
    }
    const file = files.get(id!);
    if (!file) return json(404, { message: 'File not found.' });
    if (method === 'POST' && action === 'finish') {
      file.finished = true;
      return json(200, { message: 'File attached', data: file.wire });
    }
    if (method === 'PUT') {
      file.wire.metadata = (JSON.parse(body!) as { metadata: string }).metadata;
      return json(200, { message: 'File renamed', data: file.wire });
    }
    files.delete(id!);
    return json(200, { message: 'File deleted' });
  };

  const binary: BinaryTransport = async ({ method, url, body }) => {
    const path = new URL(url);
    const file = files.get(path.pathname.split('/')[4]!)!;
    if (method === 'PUT') {
      sent.push(new TextDecoder().decode(body));
      const joined = new Uint8Array(file.bytes.length + body!.length);
      joined.set(file.bytes);
      joined.set(body!, file.bytes.length);
      file.bytes = joined;
      return {
        status: 200,
        headers: new Headers(),
        body: null,
        text: async () => JSON.stringify({ message: 'Part stored', received: joined.length }),
      };
    }
    const served = lie ? lie(file.bytes) : file.bytes;
    return {
      status: 200,
      headers: new Headers(),
      body: (async function* () {
        yield served;
      })(),
      text: async () => '',
    };
  };

  const platform: AttachmentPlatform = {
    api: new ApiClient({ baseUrl: BASE, transport, routes: () => routeTable }),
    binary,
    baseUrl: BASE,
  };
  return { platform, files, sent, lieWith: (rewrite: (bytes: Uint8Array) => Uint8Array) => (lie = rewrite) };
}
