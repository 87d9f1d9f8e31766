import { describe, expect, it } from 'vitest';
import { SEALED_CHUNK_BYTES, sealedAttachmentSize } from '../attachments/index';
import {
  openShareKeyed,
  openSharedFileStream,
  sealShareKeyed,
  sealSharedFileStream,
  ShareOpenError,
  type ShareContent,
} from './index';

/** Shared files (decision 0081): the share's key, chunks bound to the share id, index and last flag. */
const CHUNK = 64 * 1024;

function bytesOf(size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + 7) & 0xff;
  return out;
}

async function* pieces(bytes: Uint8Array, step = 50_000): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += step) yield bytes.subarray(at, at + step);
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of source) parts.push(part);
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

async function sharedFile(size: number, password: string | null = null) {
  const plain = bytesOf(size);
  const content: ShareContent = { kind: 'file', file: { name: 'report.pdf', type: 'application/pdf', size } };
  const { sealed, linkKey, key } = await sealShareKeyed(content, password);
  const cipher = await collect(sealSharedFileStream(key, sealed.id, pieces(plain), size));
  return { plain, sealed, linkKey, cipher, content };
}

async function refusal(promise: Promise<unknown>): Promise<ShareOpenError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ShareOpenError);
  return error as ShareOpenError;
}

describe('shared files', () => {
  const size = 3 * CHUNK + 1234;

  it('seals name, type and size as the content and the bytes as chunks that open with the link key', async () => {
    const { plain, sealed, linkKey, cipher, content } = await sharedFile(size);
    expect(cipher.length).toBe(sealedAttachmentSize(size));
    expect(sealed.ciphertext).not.toContain('report');
    const opened = await openShareKeyed(sealed, linkKey, null);
    expect(opened.content).toEqual(content);
    expect(await collect(openSharedFileStream(opened.key, sealed.id, pieces(cipher, 70_001), size))).toEqual(plain);
  });

  it('opens an empty file and a file of exactly whole chunks', async () => {
    for (const n of [0, 2 * CHUNK]) {
      const { plain, sealed, linkKey, cipher } = await sharedFile(n);
      const { key } = await openShareKeyed(sealed, linkKey, null);
      expect(await collect(openSharedFileStream(key, sealed.id, pieces(cipher), n))).toEqual(plain);
    }
  });

  it('refuses a changed byte, a truncated file, a cut at a chunk boundary, added bytes and reordered chunks', async () => {
    const { sealed, linkKey, cipher } = await sharedFile(size);
    const { key } = await openShareKeyed(sealed, linkKey, null);
    const open = (bytes: Uint8Array) => collect(openSharedFileStream(key, sealed.id, pieces(bytes), size));

    const changed = cipher.slice();
    changed[SEALED_CHUNK_BYTES + 40]! ^= 1;
    expect((await refusal(open(changed))).message).toMatch(/changed after it was shared/);

    expect((await refusal(open(cipher.subarray(0, cipher.length - 1)))).message).toMatch(/cut short/);
    expect((await refusal(open(cipher.subarray(0, 2 * SEALED_CHUNK_BYTES)))).message).toMatch(/cut short/);
    const longer = new Uint8Array(cipher.length + 1);
    longer.set(cipher);
    expect((await refusal(open(longer))).message).toMatch(/more data/);

    const swapped = cipher.slice();
    swapped.set(cipher.subarray(SEALED_CHUNK_BYTES, 2 * SEALED_CHUNK_BYTES), 0);
    swapped.set(cipher.subarray(0, SEALED_CHUNK_BYTES), SEALED_CHUNK_BYTES);
    expect((await refusal(open(swapped))).reason).toBe('tampered');
  });

  it('refuses a file whose last chunk was dropped even when the cut lands on a chunk boundary with a smaller size claimed', async () => {
    const { sealed, linkKey, cipher } = await sharedFile(2 * CHUNK);
    const { key } = await openShareKeyed(sealed, linkKey, null);
    // The first chunk alone, read as if the file were one chunk long: it was sealed as "more", not "last".
    const first = cipher.subarray(0, SEALED_CHUNK_BYTES);
    await refusal(collect(openSharedFileStream(key, sealed.id, pieces(first), CHUNK)));
  });

  it("refuses another share's chunks and a wrong link key", async () => {
    const one = await sharedFile(CHUNK + 5);
    const two = await sharedFile(CHUNK + 5);
    const { key } = await openShareKeyed(one.sealed, one.linkKey, null);
    // Under the right key but bound to another share id: refused.
    await refusal(collect(openSharedFileStream(key, two.sealed.id, pieces(one.cipher), CHUNK + 5)));
    // Another share's bytes under this share's key and id: refused.
    await refusal(collect(openSharedFileStream(key, one.sealed.id, pieces(two.cipher), CHUNK + 5)));
    // Another link's key does not open the share at all.
    expect((await refusal(openShareKeyed(one.sealed, two.linkKey, null))).reason).toBe('password');
  });

  it('needs the password in the key: the right one opens the file, a wrong one opens nothing', async () => {
    const { plain, sealed, linkKey, cipher } = await sharedFile(CHUNK + 9, 'tulip-42');
    expect((await refusal(openShareKeyed(sealed, linkKey, 'tulip-43'))).reason).toBe('password');
    expect((await refusal(openShareKeyed(sealed, linkKey, null))).reason).toBe('password');
    const { key } = await openShareKeyed(sealed, linkKey, 'tulip-42');
    expect(await collect(openSharedFileStream(key, sealed.id, pieces(cipher), CHUNK + 9))).toEqual(plain);
    // Four Argon2id derivations at 64 MiB: slow on a busy machine.
  }, 30_000);

  it('refuses to seal a source that gives another size than announced', async () => {
    const { sealed, key } = await sealShareKeyed({ kind: 'file', file: { name: 'a.txt', type: '', size: 10 } }, null);
    await expect(collect(sealSharedFileStream(key, sealed.id, pieces(bytesOf(11)), 10))).rejects.toThrow(RangeError);
    await expect(collect(sealSharedFileStream(key, sealed.id, pieces(bytesOf(9)), 10))).rejects.toThrow(RangeError);
  });

  it('refuses file metadata with a bad name or size before sealing', async () => {
    await expect(sealShareKeyed({ kind: 'file', file: { name: 'a/b', type: '', size: 1 } }, null)).rejects.toThrow(TypeError);
    await expect(sealShareKeyed({ kind: 'file', file: { name: 'a', type: '', size: -1 } }, null)).rejects.toThrow(TypeError);
  });
});
