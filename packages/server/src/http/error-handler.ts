import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BODY_LIMIT_BYTES } from '../config/app-config';
import {
  createFaultLog,
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE,
  databaseFaultOf,
  DISK_FULL,
} from '../db/database-faults';
import { HttpError, SERVER_FAULT } from './http-error';

/** Fastify's own request errors, in words a person can act on. */
const FRAMEWORK_MESSAGES: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    message: `The request body is too large (the limit is ${BODY_LIMIT_BYTES / 1024} KiB).`,
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    message: 'Send the request body as JSON (Content-Type: application/json).',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    message: 'The request body does not match its Content-Length.',
  },
};

/**
 * Every error answer is `{ message }` (plus `data` for some HttpErrors). Details of
 * unexpected errors are logged, never sent: a 5xx says only that the fault is ours.
 */
export function installErrorHandler(app: FastifyInstance): void {
  const logFault = createFaultLog(app.log);
  app.setErrorHandler((error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof HttpError) {
      if (error.options.headers) reply.headers(error.options.headers);
      const body = {
        message: error.message,
        ...error.options.fields,
        ...(error.options.data === undefined ? {} : { data: error.options.data }),
      };
      return reply.code(error.statusCode).send(body);
    }
    const known = error.code ? FRAMEWORK_MESSAGES[error.code] : undefined;
    // A route may raise the cap (the import batch); say the limit of the route asked.
    const routeLimit = request.routeOptions.bodyLimit;
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && routeLimit !== undefined && routeLimit !== BODY_LIMIT_BYTES) {
      return reply.code(413).send({ message: `The request body is too large (the limit is ${routeLimit / 1024} KiB).` });
    }
    if (known) return reply.code(known.status).send({ message: known.message });
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      request.log.info({ code: error.code }, 'request refused by the framework');
      return reply.code(status).send({ message: 'The request could not be understood.' });
    }
    // The database away or its disk full: not a bug, and a person can act on it (wait, retry).
    const fault = databaseFaultOf(error);
    if (fault) {
      logFault(fault, error);
      return reply
        .code(fault === 'disk-full' ? 507 : 503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ message: fault === 'disk-full' ? DISK_FULL : DATABASE_UNAVAILABLE });
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.code(500).send({ message: SERVER_FAULT });
  });
}
