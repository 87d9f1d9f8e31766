import { apiPaths, type CreateShareLinkRequest } from '@lockit/contract';
import { openShareKeyed, openSharedFileStream, sealShareKeyed, sealSharedFileStream, sealedAttachmentSize } from '@lockit/crypto';
import { expect } from 'vitest';
import type { InjectClient } from './inject-client';

/** A file shared as the browser would (decision 0081): the create body, the link key and the sealed bytes. */
export async function sealedShareFile(plain: Uint8Array, password: string | null = null, name = 'report.pdf') {
  const { sealed, linkKey, key } = await sealShareKeyed(
    { kind: 'file', file: { name, type: 'application/pdf', size: plain.length } },
    password,
  );
  const chunks: Uint8Array[] = [];
  async function* source() {
    yield plain;
  }
  for await (const chunk of sealSharedFileStream(key, sealed.id, source(), plain.length)) chunks.push(chunk);
  const bytes = Buffer.concat(chunks);
  expect(bytes.length).toBe(sealedAttachmentSize(plain.length));
  const body: CreateShareLinkRequest = {
    id: sealed.id,
    ciphertext: sealed.ciphertext,
    keyCheck: sealed.keyCheck,
    passwordSalt: sealed.passwordSalt,
    expiresInSeconds: 24 * 60 * 60,
    maxOpenings: 1,
    deleteAfterOpening: false,
    fileSize: bytes.length,
  };
  return { body, linkKey, sealed: bytes };
}

export function putSharePart(client: InjectClient, id: string, offset: number, data: Buffer) {
  return client.request('PUT', `${apiPaths.shareLinkContent(id)}?offset=${offset}`, {
    body: data,
    headers: { 'content-type': 'application/octet-stream' },
  });
}

/** Create, one part, finish: a file link that opens. */
export async function shareFile(client: InjectClient, plain: Uint8Array, options: Partial<CreateShareLinkRequest> = {}) {
  const file = await sealedShareFile(plain);
  const body = { ...file.body, ...options };
  expect((await client.post(apiPaths.shareLinks, body)).statusCode).toBe(201);
  expect((await putSharePart(client, body.id, 0, file.sealed)).statusCode).toBe(200);
  expect((await client.post(apiPaths.shareLinkFinish(body.id))).statusCode).toBe(200);
  return { ...file, body };
}

/** The recipient's side: the opened share's file bytes decrypted with the link key. */
export async function decryptDownloaded(
  opened: { id: string; ciphertext: string; keyCheck: string; passwordSalt: string | null },
  linkKey: string,
  downloaded: Buffer,
  password: string | null = null,
): Promise<Uint8Array> {
  const { content, key } = await openShareKeyed(opened, linkKey, password);
  if (content.kind !== 'file') throw new Error('not a file share');
  async function* source() {
    yield new Uint8Array(downloaded);
  }
  const parts: Uint8Array[] = [];
  for await (const part of openSharedFileStream(key, opened.id, source(), content.file.size)) parts.push(part);
  return Buffer.concat(parts);
}
