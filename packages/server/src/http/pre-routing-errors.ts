import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { setSecurityHeaders } from '../security/security-headers';

/** Errors Fastify raises before routing, which never reach the error handler. */
const PRE_ROUTING_MESSAGES: Record<string, { status: number; message: string }> = {
  FST_ERR_BAD_URL: { status: 400, message: 'The address of this request is not valid.' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, message: 'The address of this request is too long.' },
};

/**
 * Fastify's `frameworkErrors` option: a malformed URL or an over-long path parameter gets the
 * same `{ message }` shape as every other answer, without echoing the path back.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const known = PRE_ROUTING_MESSAGES[error.code] ?? { status: 400, message: 'The request could not be understood.' };
  request.log.info({ code: error.code }, 'request refused before routing');
  setSecurityHeaders(request, reply);
  void reply.code(known.status).send({ message: known.message });
}

/** What Node's HTTP parser refuses (malformed HTTP, oversized headers, slow clients). */
const CLIENT_ERROR_MESSAGES: Record<string, { status: number; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive.' },
  HPE_HEADER_OVERFLOW: { status: 431, message: 'The request headers are too large.' },
};

/**
 * Fastify's `clientErrorHandler` option: requests too broken to become a request (bad HTTP
 * syntax, huge headers) still get a `{ message }` answer before the connection closes.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known = (error.code ? CLIENT_ERROR_MESSAGES[error.code] : undefined) ?? {
    status: 400,
    message: 'The request could not be understood.',
  };
  const body = JSON.stringify({ message: known.message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${known.status} ${STATUS_CODES[known.status] ?? ''}\r\nConnection: close\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
