import type { FastifyServerOptions } from 'fastify';
import { isColorSupported } from 'pino-pretty';
import type { AppConfig } from '../config/app-config';
import { createPrettyLogStream } from './pretty-log';

/** A pino destination: anything pino can write its JSON lines to. */
export interface LogDestination {
  write(text: string): unknown;
}

/**
 * Fastify logs one `Server listening at http://127.0.0.1:PORT` line per bound address. That
 * address is not a secure context for the app's WebCrypto, so main prints the address a
 * browser can use instead (src/http/public-url.ts) and these lines are dropped.
 */
const FASTIFY_LISTEN_TEXT = 'Server listening at ';

export interface TerminalFacts {
  /** Whether the process's stdout is a terminal (a person reads it). */
  stdoutIsTty: boolean;
  /** Whether that terminal shows colours (colorette: TTY, NO_COLOR, FORCE_COLOR...). */
  colors: boolean;
}

const processTerminal: TerminalFacts = { stdoutIsTty: process.stdout.isTTY === true, colors: isColorSupported };

/**
 * Fastify's `logger` option. JSON lines (pino's own format) unless LOG_FORMAT says `pretty`, or
 * says `auto` and the log goes to stdout on a terminal. A given `logStream` (tests) is never a
 * terminal, so `auto` writes JSON to it.
 */
export function loggerOptions(
  config: Pick<AppConfig, 'logLevel' | 'logFormat'>,
  logStream?: LogDestination,
  terminal: TerminalFacts = processTerminal,
): FastifyServerOptions['logger'] {
  if (config.logLevel === 'silent' && !logStream) return false;
  const toTerminal = !logStream && terminal.stdoutIsTty;
  const pretty = config.logFormat === 'pretty' || (config.logFormat === 'auto' && toTerminal);
  const stream = pretty ? createPrettyLogStream(logStream ?? process.stdout, !logStream && terminal.colors) : logStream;
  return {
    level: config.logLevel,
    ...(stream ? { stream } : {}),
    hooks: {
      logMethod(args, method) {
        if (typeof args[0] === 'string' && args[0].startsWith(FASTIFY_LISTEN_TEXT)) return;
        method.apply(this, args);
      },
    },
  };
}
