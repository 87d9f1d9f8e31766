import { describe, expect, it } from 'vitest';
import { generateVaultKeyBytes, importVaultKey } from '../vault-key';
import {
  ATTACHMENT_CHUNK_BYTES,
  AttachmentDecryptionError,
  newAttachmentKey,
  openAttachmentMetadata,
  openAttachmentStream,
  plainAttachmentSize,
  rewrapAttachmentKey,
  SEALED_CHUNK_BYTES,
  sealAttachmentMetadata,
  sealAttachmentStream,
  sealedAttachmentSize,
  unwrapAttachmentKey,
  type AttachmentIds,
} from './index';

const ids: AttachmentIds = { itemId: crypto.randomUUID(), fileId: crypto.randomUUID() };
const vaultKey = () => importVaultKey(generateVaultKeyBytes());

function bytesOf(size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + 7) & 0xff;
  return out;
}

async function* pieces(data: Uint8Array, step: number): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < data.length; offset += step) yield data.subarray(offset, offset + step);
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of source) parts.push(part);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

async function sealedChunks(key: CryptoKey, data: Uint8Array, forIds = ids): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of sealAttachmentStream(key, forIds, pieces(data, 10_000), data.length)) chunks.push(chunk);
  return chunks;
}

/** Byte equality without a deep compare of every element (slow on large arrays). */
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((value, i) => value === b[i]);

const concat = (chunks: Uint8Array[]) =>
  collect(
    (async function* () {
      yield* chunks;
    })(),
  );

async function openError(key: CryptoKey, chunks: Uint8Array[], size: number, forIds = ids): Promise<AttachmentDecryptionError> {
  const error = await collect(openAttachmentStream(key, forIds, pieces(await concat(chunks), 7_777), size)).catch(
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AttachmentDecryptionError);
  return error as AttachmentDecryptionError;
}

describe('attachments', () => {
  it.each([
    0,
    1,
    ATTACHMENT_CHUNK_BYTES - 1,
    ATTACHMENT_CHUNK_BYTES,
    ATTACHMENT_CHUNK_BYTES + 1,
    3 * ATTACHMENT_CHUNK_BYTES,
    200_001,
  ])(
    'round-trips %i bytes through pieces of any size, to the exact sealed size',
    async (size) => {
      const { key } = await newAttachmentKey(await vaultKey(), ids);
      const data = bytesOf(size);
      const chunks = await sealedChunks(key, data);
      const sealed = await concat(chunks);
      expect(sealed.length).toBe(sealedAttachmentSize(size));
      expect(chunks.slice(0, -1).every((c) => c.length === SEALED_CHUNK_BYTES)).toBe(true);
      for (const step of [1_000, SEALED_CHUNK_BYTES, 1 << 20]) {
        expect(same(await collect(openAttachmentStream(key, ids, pieces(sealed, step), size)), data)).toBe(true);
      }
    },
    30_000,
  );

  it('refuses a source whose size differs from the one sealed into the metadata', async () => {
    const { key } = await newAttachmentKey(await vaultKey(), ids);
    await expect(collect(sealAttachmentStream(key, ids, pieces(bytesOf(100), 10), 99))).rejects.toThrow(RangeError);
    await expect(collect(sealAttachmentStream(key, ids, pieces(bytesOf(100), 10), 101))).rejects.toThrow(RangeError);
  });

  describe('a lying server', () => {
    const size = 3 * ATTACHMENT_CHUNK_BYTES + 500;

    it('is caught reordering, swapping, dropping, truncating, extending or flipping chunks', async () => {
      const { key } = await newAttachmentKey(await vaultKey(), ids);
      const chunks = await sealedChunks(key, bytesOf(size));
      const [a, b, c, d] = chunks as [Uint8Array, Uint8Array, Uint8Array, Uint8Array];
      expect((await openError(key, [b, a, c, d], size)).reason).toBe('chunk');
      expect((await openError(key, [a, b, a, d], size)).reason).toBe('chunk');
      // Dropping the last chunk at a boundary: the stream ends early.
      expect((await openError(key, [a, b, c], size)).reason).toBe('truncated');
      // Serving the file as shorter (a lied size) makes a middle chunk stand in for the last.
      expect((await openError(key, [a, b, c], 3 * ATTACHMENT_CHUNK_BYTES)).reason).toBe('chunk');
      const cut = await concat(chunks);
      expect((await openError(key, [cut.subarray(0, cut.length - 1)], size)).reason).toBe('truncated');
      expect((await openError(key, [...chunks, new Uint8Array([1])], size)).reason).toBe('extra');
      const flipped = d.slice();
      flipped[20] = flipped[20]! ^ 1;
      expect((await openError(key, [a, b, c, flipped], size)).reason).toBe('chunk');
    }, 30_000);

    it("is caught splicing in another file's chunks or serving another file", async () => {
      const vk = await vaultKey();
      const { key } = await newAttachmentKey(vk, ids);
      const otherIds = { itemId: ids.itemId, fileId: crypto.randomUUID() };
      const other = await newAttachmentKey(vk, otherIds);
      const mine = await sealedChunks(key, bytesOf(size));
      const theirs = await sealedChunks(other.key, bytesOf(size), otherIds);
      expect((await openError(key, [mine[0]!, theirs[1]!, mine[2]!, mine[3]!], size)).reason).toBe('chunk');
      expect((await openError(key, theirs, size)).reason).toBe('chunk');
      // The same key under other ids (a file moved to another item) fails too.
      expect((await openError(key, mine, size, { itemId: crypto.randomUUID(), fileId: ids.fileId })).reason).toBe('chunk');
    });

    it('refuses a file key wrapped for another item or file, or changed', async () => {
      const vk = await vaultKey();
      const { wrappedKey } = await newAttachmentKey(vk, ids);
      await expect(unwrapAttachmentKey(vk, wrappedKey, ids)).resolves.toBeDefined();
      for (const wrongIds of [
        { ...ids, itemId: crypto.randomUUID() },
        { ...ids, fileId: crypto.randomUUID() },
      ]) {
        await expect(unwrapAttachmentKey(vk, wrappedKey, wrongIds)).rejects.toMatchObject({ reason: 'key' });
      }
      const changed = `${wrappedKey.slice(0, -2)}${wrappedKey.endsWith('AA') ? 'BA' : 'AA'}`;
      await expect(unwrapAttachmentKey(vk, changed, ids)).rejects.toMatchObject({ reason: 'key' });
      await expect(unwrapAttachmentKey(await vaultKey(), wrappedKey, ids)).rejects.toMatchObject({ reason: 'key' });
      await expect(unwrapAttachmentKey(vk, 'plain text', ids)).rejects.toMatchObject({ reason: 'key' });
    });

    it('refuses metadata of another file, even under the same key', async () => {
      const vk = await vaultKey();
      const { key } = await newAttachmentKey(vk, ids);
      const sealed = await sealAttachmentMetadata(key, ids, { name: 'scan.pdf', size: 12, type: 'application/pdf' });
      expect(await openAttachmentMetadata(key, ids, sealed)).toEqual({ name: 'scan.pdf', size: 12, type: 'application/pdf' });
      await expect(openAttachmentMetadata(key, { ...ids, fileId: crypto.randomUUID() }, sealed)).rejects.toMatchObject({
        reason: 'metadata',
      });
      const other = await newAttachmentKey(vk, ids);
      await expect(openAttachmentMetadata(other.key, ids, sealed)).rejects.toMatchObject({ reason: 'metadata' });
    });
  });

  it('refuses names a person could not have meant and sealed metadata hides the name length within a bucket', async () => {
    const { key } = await newAttachmentKey(await vaultKey(), ids);
    for (const name of ['', '   ', 'a/b', 'a\\b', 'bad\u0000', 'x'.repeat(256)]) {
      await expect(sealAttachmentMetadata(key, ids, { name, size: 1, type: '' })).rejects.toThrow(RangeError);
    }
    await expect(sealAttachmentMetadata(key, ids, { name: 'a', size: -1, type: '' })).rejects.toThrow(RangeError);
    const short = await sealAttachmentMetadata(key, ids, { name: 'a.txt', size: 1, type: '' });
    const longer = await sealAttachmentMetadata(key, ids, { name: 'abcdefgh.txt', size: 1, type: '' });
    expect(short.length).toBe(longer.length);
  });

  it('key rotation re-wraps the file key: the same sealed content and metadata open under the new vault key', async () => {
    const oldVk = await vaultKey();
    const newVk = await vaultKey();
    const { key, wrappedKey } = await newAttachmentKey(oldVk, ids);
    const data = bytesOf(70_000);
    const sealed = await concat(await sealedChunks(key, data));
    const meta = await sealAttachmentMetadata(key, ids, { name: 'a.bin', size: data.length, type: '' });
    const rewrapped = await rewrapAttachmentKey(oldVk, newVk, wrappedKey, ids);
    await expect(unwrapAttachmentKey(oldVk, rewrapped, ids)).rejects.toMatchObject({ reason: 'key' });
    const reopened = await unwrapAttachmentKey(newVk, rewrapped, ids);
    expect((await openAttachmentMetadata(reopened, ids, meta)).name).toBe('a.bin');
    expect(same(await collect(openAttachmentStream(reopened, ids, pieces(sealed, 4096), data.length)), data)).toBe(true);
    await expect(rewrapAttachmentKey(newVk, oldVk, wrappedKey, ids)).rejects.toMatchObject({ reason: 'key' });
  });
});

describe('plainAttachmentSize', () => {
  it('gives back the file size of every sealed length, at and around the chunk boundaries', () => {
    for (const size of [
      0,
      1,
      ATTACHMENT_CHUNK_BYTES - 1,
      ATTACHMENT_CHUNK_BYTES,
      ATTACHMENT_CHUNK_BYTES + 1,
      3 * ATTACHMENT_CHUNK_BYTES,
      100 * 1024 * 1024,
    ]) {
      expect(plainAttachmentSize(sealedAttachmentSize(size))).toBe(size);
    }
  });

  it('answers null for a length no file seals to, rather than a made-up size', () => {
    // Between one full chunk sealed and the shortest two-chunk file sealed, no file fits.
    for (const sealed of [-1, 0, 27, SEALED_CHUNK_BYTES + 1, SEALED_CHUNK_BYTES + 28, 1.5, Number.NaN]) {
      expect(plainAttachmentSize(sealed)).toBeNull();
    }
  });
});
