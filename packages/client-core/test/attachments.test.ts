import { apiPaths } from '@lockit/contract';
import { ATTACHMENT_CHUNK_BYTES, AttachmentDecryptionError, SEALED_CHUNK_BYTES } from '@lockit/crypto';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  deleteAttachment,
  downloadAttachment,
  listAttachments,
  renameAttachment,
  uploadAttachment,
  type OpenedAttachment,
} from '../src';
import { attachmentPlatform, bytesSource, collect } from './support/attachment-device';
import { databaseKind } from './support/core-against-server';
import { useCoreServer } from './support/use-core-server';

const env = useCoreServer();

const ENTRY = { serviceName: 'Birch Bank', username: 'ada', password: 'b1rch!' };
/** A marker the server must never see: the file's bytes are made of it. */
const MARKER = 'PLAINTEXT-MARKER-7d1f';

function fileBytes(size: number): Uint8Array {
  const text = new TextEncoder().encode(MARKER);
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = text[i % text.length]!;
  return out;
}

async function withFile(size = 3 * ATTACHMENT_CHUNK_BYTES + 1234, entries = [ENTRY, { ...ENTRY, serviceName: 'Other' }]) {
  const owner = await env.account(entries);
  const entryId = String(owner.entries[0]!.id);
  const direct = attachmentPlatform(owner.client, env.server.url);
  const bytes = fileBytes(size);
  const file = await uploadAttachment(
    direct,
    owner.vaultKey,
    entryId,
    bytesSource('tax return 2026.pdf', bytes, 'application/pdf'),
  );
  const lying = attachmentPlatform(owner.client, env.proxy.url);
  return { owner, entryId, direct, lying, bytes, file };
}

const opened = (file: { kind: string }) => file as OpenedAttachment;
const contentPath = /^\/api\/attachments\/[^/]+\/[^/]+\/content$/;

describe(`attachments through the client core against the real server (${databaseKind})`, () => {
  it('uploads sealed, lists the name opened, downloads the same bytes; the server never sees the name or a byte in clear', async () => {
    const owner = await env.account([ENTRY]);
    const entryId = String(owner.entries[0]!.id);
    const viaProxy = attachmentPlatform(owner.client, env.proxy.url);
    const bytes = fileBytes(5 * ATTACHMENT_CHUNK_BYTES + 77);
    const progress: number[] = [];
    const file = await uploadAttachment(viaProxy, owner.vaultKey, entryId, bytesSource('passport-scan.png', bytes, 'image/png'), {
      onProgress: (done) => progress.push(done),
    });
    expect(file).toMatchObject({ name: 'passport-scan.png', size: bytes.length, type: 'image/png' });
    expect(progress.at(-1)).toBe(bytes.length);

    const list = await listAttachments(viaProxy, owner.vaultKey, entryId);
    expect(list.files).toHaveLength(1);
    expect(list.files[0]).toMatchObject({ kind: 'file', name: 'passport-scan.png', size: bytes.length });
    expect(list.usage.usedBytes).toBeGreaterThan(bytes.length);
    expect(await collect(downloadAttachment(viaProxy, opened(list.files[0]!)))).toEqual(bytes);
    expect(env.proxy.requestsContaining(MARKER, 'passport-scan')).toEqual([]);
  });

  it('renames with a new sealed name and deletes for good', async () => {
    const { owner, entryId, direct, file } = await withFile(10);
    const renamed = await renameAttachment(direct, file, 'return (signed).pdf');
    expect(renamed.name).toBe('return (signed).pdf');
    const list = await listAttachments(direct, owner.vaultKey, entryId);
    expect(list.files.map((f) => (f.kind === 'file' ? f.name : f.problem))).toEqual(['return (signed).pdf']);
    await deleteAttachment(direct, file);
    expect((await listAttachments(direct, owner.vaultKey, entryId)).files).toEqual([]);
    await expect(collect(downloadAttachment(direct, file))).rejects.toMatchObject({ status: 404 });
  });

  it('uploads an empty file and one of exactly one chunk', async () => {
    const owner = await env.account([ENTRY]);
    const entryId = String(owner.entries[0]!.id);
    const direct = attachmentPlatform(owner.client, env.server.url);
    for (const size of [0, ATTACHMENT_CHUNK_BYTES]) {
      const bytes = fileBytes(size);
      const file = await uploadAttachment(direct, owner.vaultKey, entryId, bytesSource(`f${size}`, bytes));
      expect(await collect(downloadAttachment(direct, file))).toEqual(bytes);
    }
  });

  it('files follow their entry to Trash and back, and go with its purge', async () => {
    const { owner, entryId, direct, file, bytes } = await withFile(1000);
    await owner.client.expect(200, 'DELETE', `${apiPaths.deleteEntry(entryId)}?revision=1`);
    expect((await listAttachments(direct, owner.vaultKey, entryId)).files).toHaveLength(1);
    expect(await collect(downloadAttachment(direct, file))).toEqual(bytes);
    // No new file goes into a trashed entry.
    const refused = await uploadAttachment(direct, owner.vaultKey, entryId, bytesSource('x', fileBytes(3))).catch(
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ status: 409, serverMessage: expect.stringMatching(/restore it/) });
    await owner.client.expect(200, 'POST', apiPaths.restoreEntry(entryId), { revision: 2 });
    expect((await listAttachments(direct, owner.vaultKey, entryId)).files).toHaveLength(1);
    await owner.client.expect(200, 'DELETE', `${apiPaths.deleteEntry(entryId)}?revision=3`);
    await owner.client.expect(200, 'DELETE', `${apiPaths.purgeEntry(entryId)}?revision=4`);
    await expect(listAttachments(direct, owner.vaultKey, entryId)).rejects.toMatchObject({ status: 404 });
    await expect(collect(downloadAttachment(direct, file))).rejects.toBeInstanceOf(ApiError);
  });
});

describe(`a lying server and attachments (${databaseKind})`, () => {
  async function failure(promise: Promise<unknown>): Promise<AttachmentDecryptionError> {
    const error = await promise.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AttachmentDecryptionError);
    return error as AttachmentDecryptionError;
  }

  it('reordered chunks are caught, and said plainly', async () => {
    const { lying, file } = await withFile();
    env.proxy.rewriteBytes({
      path: contentPath,
      rewrite: (body) =>
        Buffer.concat([
          body.subarray(SEALED_CHUNK_BYTES, 2 * SEALED_CHUNK_BYTES),
          body.subarray(0, SEALED_CHUNK_BYTES),
          body.subarray(2 * SEALED_CHUNK_BYTES),
        ]),
    });
    const error = await failure(collect(downloadAttachment(lying, file)));
    expect(error.reason).toBe('chunk');
    expect(error.message).toBe(
      'Part 1 of this file failed its check: the server changed, swapped, reordered or replaced parts of the file. The file was not saved.',
    );
  });

  it('a file cut short at a chunk boundary, or anywhere, is caught', async () => {
    const { lying, file } = await withFile();
    env.proxy.rewriteBytes({ path: contentPath, times: 1, rewrite: (body) => body.subarray(0, 3 * SEALED_CHUNK_BYTES) });
    expect((await failure(collect(downloadAttachment(lying, file)))).message).toMatch(/cut short/);
    env.proxy.rewriteBytes({ path: contentPath, times: 1, rewrite: (body) => body.subarray(0, body.length - 5) });
    expect((await failure(collect(downloadAttachment(lying, file)))).reason).toBe('truncated');
  });

  it("another file's content served in its place is caught, even the same entry's", async () => {
    const { owner, entryId, direct, lying, file } = await withFile();
    const other = await uploadAttachment(direct, owner.vaultKey, entryId, bytesSource('other.pdf', fileBytes(file.size)));
    const otherContent = Buffer.from(await collect(downloadAttachmentRaw(other)));
    env.proxy.rewriteBytes({ path: contentPath, rewrite: () => otherContent });
    expect((await failure(collect(downloadAttachment(lying, file)))).reason).toBe('chunk');

    async function* downloadAttachmentRaw(target: OpenedAttachment) {
      const response = await fetch(`${env.server.url}/api/attachments/${target.ids.itemId}/${target.ids.fileId}/content`, {
        headers: { cookie: owner.client.cookieHeader },
      });
      yield new Uint8Array(await response.arrayBuffer());
    }
  });

  it("another entry's file listed under this entry shows as damaged, with why", async () => {
    const { owner, entryId, lying } = await withFile(100);
    const otherEntryId = String(owner.entries[1]!.id);
    const direct = attachmentPlatform(owner.client, env.server.url);
    await uploadAttachment(direct, owner.vaultKey, otherEntryId, bytesSource('other entry.txt', fileBytes(50)));
    const others = await owner.client.expect<{ data: Array<Record<string, unknown>> }>(
      200,
      'GET',
      `/api/attachments/${otherEntryId}`,
    );
    // The lie: the other entry's row, relabelled as this entry's, in this entry's list.
    env.proxy.rewrite({
      method: 'GET',
      path: `/api/attachments/${entryId}`,
      rewrite: ({ body }) => {
        const answer = body as { data: Array<Record<string, unknown>> };
        answer.data.push({ ...others.data[0]!, entryId });
      },
    });
    const list = await listAttachments(lying, owner.vaultKey, entryId);
    expect(list.files.map((f) => f.kind)).toEqual(['file', 'damaged']);
    expect(list.files[1]).toMatchObject({ problem: expect.stringMatching(/^This file's key does not open for this item/) });
  });

  it('a size changed in the list shows the file as damaged', async () => {
    const { owner, entryId, lying } = await withFile(100);
    env.proxy.rewrite({
      method: 'GET',
      path: `/api/attachments/${entryId}`,
      rewrite: ({ body }) => {
        const answer = body as { data: Array<{ size: number }> };
        answer.data[0]!.size -= 1;
      },
    });
    const list = await listAttachments(lying, owner.vaultKey, entryId);
    expect(list.files[0]).toMatchObject({ kind: 'damaged', problem: expect.stringMatching(/another size/) });
  });
});
