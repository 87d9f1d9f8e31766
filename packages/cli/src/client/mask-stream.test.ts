import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MASK, maskStream } from './mask-stream.js';

/** Writes the chunks one by one into a mask stream and returns what came out, and when. */
async function through(secrets: string[], chunks: (string | Buffer)[]) {
  const masked = maskStream(secrets);
  const sink = new PassThrough();
  const seen: string[] = [];
  masked.pipe(sink);
  sink.on('data', (chunk: Buffer) => seen.push(chunk.toString('utf8')));
  for (const chunk of chunks) {
    masked.write(chunk);
    await new Promise((resolve) => setImmediate(resolve));
  }
  masked.end();
  await new Promise((resolve) => sink.on('end', resolve));
  return { all: seen.join(''), seen };
}

describe('the output mask of lockit run', () => {
  it('masks every occurrence of every secret, longest first', async () => {
    const { all } = await through(['hunter2', 'hunter2-long'], ['a hunter2 b hunter2-long c hunter2\n']);
    expect(all).toBe(`a ${MASK} b ${MASK} c ${MASK}\n`);
  });

  it('masks a secret cut across chunks, holding back only what could begin one', async () => {
    const { all, seen } = await through(['s3cr3t-value'], ['token: s3c', 'r3t-', 'value done\n', 'plain s', 'tays\n']);
    expect(all).toBe(`token: ${MASK} done\nplain stays\n`);
    // "token: " flowed out before the secret was complete.
    expect(seen[0]).toBe('token: ');
  });

  it('masks multi-byte secrets and passes bytes that are not UTF-8 through unchanged', async () => {
    const binary = Buffer.from([0xff, 0xfe, 0x00, 0x41]);
    const masked = maskStream(['pässwörd']);
    const parts: Buffer[] = [];
    masked.on('data', (chunk: Buffer) => parts.push(chunk));
    masked.write(binary);
    masked.write(Buffer.from('x pässwörd y', 'utf8').subarray(0, 5));
    masked.end(Buffer.from('x pässwörd y', 'utf8').subarray(5));
    await new Promise((resolve) => masked.on('end', resolve));
    const out = Buffer.concat(parts);
    expect(out.subarray(0, 4)).toEqual(binary);
    expect(out.subarray(4).toString('utf8')).toBe(`x ${MASK} y`);
  });

  it('ignores empty secrets', async () => {
    expect((await through(['', 'x'], ['a x b'])).all).toBe(`a ${MASK} b`);
  });
});
