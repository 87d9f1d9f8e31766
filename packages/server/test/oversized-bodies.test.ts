import { connect, type AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, CLIENT_HEADER, CLIENT_HEADER_VALUE } from '@lockit/contract';
import { BODY_LIMIT_BYTES } from '../src/config/app-config';
import { UNREAD_BODY_DRAIN_MS } from '../src/http/unread-body-drain';
import { recordFigures } from './helpers/figures';
import { useTestApp } from './helpers/test-app';

/**
 * A body over the limit must always get its 413 answer. The server answers before reading
 * the whole body; when it then closed the connection with the rest still arriving, the client
 * saw a broken pipe or a reset instead of the answer. Real uploads over real sockets.
 */
const UPLOADS = 50;
const TOO_LARGE = { message: `The request body is too large (the limit is ${BODY_LIMIT_BYTES / 1024} KiB).` };

const h = useTestApp();
let port: number;

beforeAll(async () => {
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  port = (h.app.server.address() as AddressInfo).port;
});

type Outcome = { status: number; body: string } | { error: string };

/**
 * One upload of `bytes`, with a Content-Length or chunked, as a simple client does it: the
 * whole request written first, the answer read after (Python's requests, many scripts). Such
 * a client lost the 413 when the server closed while the body was still arriving: the reset
 * that answers the late bytes throws away the answer it had not read yet.
 */
function upload(bytes: number, chunked: boolean): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.pause(); // read nothing until the request is written
    let raw = '';
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(outcome);
    };
    const readAnswer = () => {
      socket.on('data', (chunk: Buffer) => {
        raw += chunk.toString();
        const parsed = parseAnswer(raw);
        if (parsed) settle(parsed);
      });
      socket.on('end', () => settle(parseAnswer(raw) ?? { error: raw === '' ? 'closed without an answer' : 'partial answer' }));
      socket.resume();
    };
    socket.on('error', (error: NodeJS.ErrnoException) => settle({ error: error.code ?? error.message }));
    const head =
      `POST ${apiPaths.prelogin} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
      `${CLIENT_HEADER}: ${CLIENT_HEADER_VALUE}\r\n` +
      (chunked ? 'Transfer-Encoding: chunked\r\n\r\n' : `Content-Length: ${bytes}\r\n\r\n`);
    socket.write(head);
    // 32 KiB every 2 ms, as over a real link: on loopback a whole body otherwise lands in the
    // kernel's buffers at once, before the server could close.
    const piece = Buffer.alloc(32 * 1024, 'a');
    let sent = 0;
    const writeMore = () => {
      if (socket.destroyed) return;
      if (sent >= bytes) {
        socket.write(chunked ? '0\r\n\r\n' : '', () => readAnswer());
        return;
      }
      const part = piece.subarray(0, Math.min(piece.length, bytes - sent));
      sent += part.length;
      const frame = chunked ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]) : part;
      socket.write(frame);
      setTimeout(writeMore, 2);
    };
    writeMore();
  });
}

/** The status and body of a complete HTTP/1.1 answer with a Content-Length, or undefined. */
function parseAnswer(raw: string): Outcome | undefined {
  const split = raw.indexOf('\r\n\r\n');
  if (split === -1) return undefined;
  const length = /\r\ncontent-length: (\d+)/i.exec(raw.slice(0, split));
  const body = raw.slice(split + 4);
  if (!length || body.length < Number(length[1])) return undefined;
  return { status: Number(raw.slice(9, 12)), body: body.slice(0, Number(length[1])) };
}

function tally(outcomes: Outcome[]) {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) {
    const key = 'error' in outcome ? outcome.error : String(outcome.status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

describe('oversized bodies', () => {
  for (const chunked of [false, true]) {
    const how = chunked ? 'chunked' : 'with a Content-Length';
    it(`${UPLOADS} uploads of twice the limit, ${how}: every one receives the 413 and its message`, async () => {
      const outcomes = await Promise.all(Array.from({ length: UPLOADS }, () => upload(2 * BODY_LIMIT_BYTES, chunked)));
      recordFigures('oversized-bodies', {
        how: chunked ? 'chunked' : 'content-length',
        uploads: UPLOADS,
        answers: tally(outcomes),
      });
      for (const outcome of outcomes) {
        expect(outcome).toEqual({ status: 413, body: JSON.stringify(TOO_LARGE) });
      }
    });
  }

  it(`a body that never ends is read for at most ${UNREAD_BODY_DRAIN_MS / 1000} s after the answer, then cut off`, async () => {
    const started = performance.now();
    const outcome = await upload(1024 * 1024 * 1024, true);
    const elapsed = performance.now() - started;
    recordFigures('oversized-bodies', {
      how: 'chunked 1 GiB, paced',
      answer: 'error' in outcome ? outcome.error : outcome.status,
      ms: Math.round(elapsed),
    });
    expect(outcome).toHaveProperty('error');
    expect(elapsed).toBeGreaterThanOrEqual(UNREAD_BODY_DRAIN_MS - 100);
    expect(elapsed).toBeLessThan(UNREAD_BODY_DRAIN_MS + 4_000);
  });
});
