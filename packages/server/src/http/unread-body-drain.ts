import type { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How long the rest of a refused body is read and thrown away before the connection is cut. */
export const UNREAD_BODY_DRAIN_MS = 5_000;

/**
 * Answers sent before the request body has fully arrived (a 413 from Content-Length, a body
 * that passed the limit mid-way, a 401 or 415 before parsing) must reach the client. Fastify
 * marks its body errors `Connection: close`, and Node then closes the socket at once: the
 * body's bytes still arriving meet a closed socket, the kernel answers them with a reset, and
 * a client that writes its whole request before reading (most scripts, many libraries) gets
 * EPIPE or ECONNRESET and never sees the answer it was sent.
 *
 * Instead the connection stays open: Node reads the rest of the body and discards it, so the
 * client finishes writing and reads its answer, and the connection can serve the next
 * request. A body that is still arriving `drainMs` after the answer is cut off (first a FIN,
 * then the socket), so no client can make the server read forever.
 */
export function installUnreadBodyDrain(app: FastifyInstance, drainMs = UNREAD_BODY_DRAIN_MS): void {
  app.addHook('onSend', async (request, reply, payload) => {
    // `complete` is false while a body is still arriving (undefined for injected requests: nothing arrives).
    if (request.raw.complete !== false) return payload;
    if (String(reply.getHeader('connection') ?? '').toLowerCase() === 'close') reply.removeHeader('connection');
    cutOffIfStillArriving(request.raw, drainMs);
    return payload;
  });
}

function cutOffIfStillArriving(request: IncomingMessage, drainMs: number): void {
  const socket = request.socket;
  // An injected request (light-my-request) has a stand-in socket with nothing to cut off.
  if (!(socket instanceof Socket)) return;
  const timer = setTimeout(() => {
    if (request.complete || socket.destroyed) return;
    socket.end();
    setTimeout(() => socket.destroy(), 1_000).unref();
  }, drainMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}
