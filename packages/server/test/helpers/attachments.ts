import { attachmentPaths } from '@lockit/contract';
import {
  generateVaultKeyBytes,
  importVaultKey,
  newAttachmentKey,
  newEntryId,
  sealAttachmentMetadata,
  sealAttachmentStream,
  sealedAttachmentSize,
} from '@lockit/crypto';
import { expect } from 'vitest';
import type { InjectClient } from './inject-client';
import { encryptItem } from './entries';
import type { TestAccount } from '@lockit/test-support';

/** An entry of the account, added through the API; its id. */
export async function addEntry(client: InjectClient, account: TestAccount): Promise<string> {
  const body = await encryptItem(account, { serviceName: 's', username: 'u', password: 'p', overview: { v: 1, type: 'login' } });
  const response = await client.post('/api/passwords/add', body);
  expect(response.statusCode).toBe(201);
  return (response.json() as { data: { id: string } }).data.id;
}

/** A file sealed as a browser would (the server only ever sees this): its create body and sealed bytes. */
export async function sealedFile(entryId: string, plain: Uint8Array, name = 'notes.txt') {
  const vaultKey = await importVaultKey(generateVaultKeyBytes());
  const ids = { itemId: entryId, fileId: newEntryId() };
  const { key, wrappedKey } = await newAttachmentKey(vaultKey, ids);
  const metadata = await sealAttachmentMetadata(key, ids, { name, size: plain.length, type: 'text/plain' });
  const chunks: Uint8Array[] = [];
  async function* source() {
    yield plain;
  }
  for await (const chunk of sealAttachmentStream(key, ids, source(), plain.length)) chunks.push(chunk);
  const sealed = Buffer.concat(chunks);
  expect(sealed.length).toBe(sealedAttachmentSize(plain.length));
  return { ids, body: { id: ids.fileId, wrappedKey, metadata, size: sealed.length }, sealed };
}

export function putPart(client: InjectClient, entryId: string, id: string, offset: number, bytes: Buffer) {
  return client.request('PUT', `${attachmentPaths.content(entryId, id)}?offset=${offset}`, {
    body: bytes,
    headers: { 'content-type': 'application/octet-stream' },
  });
}

/** Create, one part, finish: a finished file. */
export async function uploadFile(client: InjectClient, entryId: string, plain: Uint8Array, name?: string) {
  const file = await sealedFile(entryId, plain, name);
  expect((await client.post(attachmentPaths.list(entryId), file.body)).statusCode).toBe(201);
  expect((await putPart(client, entryId, file.ids.fileId, 0, file.sealed)).statusCode).toBe(200);
  expect((await client.post(attachmentPaths.finish(entryId, file.ids.fileId))).statusCode).toBe(200);
  return file;
}
