import { prettyFactory, type MessageFormatFunc } from 'pino-pretty';
import { isDevMailRecord, type DevMailRecord } from '../mail/log-mailer';

type Colors = Parameters<MessageFormatFunc>[3]['colors'];

/**
 * Fields the message line already shows (formatLogMessage), so they are not repeated below
 * it; pid and hostname say nothing on one's own terminal. Every other field, and `err` with
 * its stack, is still printed.
 */
const SHOWN_IN_MESSAGE = [
  'pid',
  'hostname',
  'reqId',
  'req',
  'res',
  'responseTime',
  'code',
  'devMail',
  'to',
  'username',
  'browserUrl',
];

/**
 * The message of one log record as a person reads it on a terminal: request lines on one
 * line with their method, URL and status, the address to open in bold, and a development
 * mail as a box that cannot be missed among the request lines.
 */
export const formatLogMessage: MessageFormatFunc = (log, messageKey, _levelLabel, { colors }) => {
  const message = String(log[messageKey] ?? '');
  if (isDevMailRecord(log)) return `${message}\n${devMailBox(log, colors)}`;
  if (typeof log.browserUrl === 'string') return colors.bold(colors.green(message));
  const prefix = typeof log.reqId === 'string' ? colors.gray(`[${log.reqId}] `) : '';
  const req = asRecord(log.req);
  const res = asRecord(log.res);
  if (req) return `${prefix}${message}: ${String(req.method)} ${String(req.url)}`;
  if (res) {
    const took = typeof log.responseTime === 'number' ? ` in ${log.responseTime.toFixed(1)} ms` : '';
    return `${prefix}${message}: ${String(res.statusCode)}${took}`;
  }
  if (log.code !== undefined) return `${prefix}${message} (${String(log.code)})`;
  return `${prefix}${message}`;
};

function devMailBox({ username, code, to }: DevMailRecord, colors: Colors): string {
  const lines = [`VERIFICATION CODE for ${username}: ${code}`, `(would be mailed to ${to})`];
  const width = Math.max(...lines.map((line) => [...line].length));
  const edge = '─'.repeat(width + 4);
  const row = (line: string) => `│  ${line}${' '.repeat(width - [...line].length)}  │`;
  const box = [`┌${edge}┐`, ...lines.map(row), `└${edge}┘`];
  return box.map((line) => colors.bold(colors.yellow(line))).join('\n');
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

/** Turns one JSON log line into the readable text a terminal shows (with its newline). */
export function createLogPrettifier(colorize: boolean): (jsonLine: string) => string {
  const prettify = prettyFactory({
    colorize,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: SHOWN_IN_MESSAGE.join(','),
    messageFormat: formatLogMessage,
  });
  return (jsonLine) => prettify(jsonLine) ?? '';
}

/**
 * A pino destination writing readable lines to `destination`, synchronously, in this process:
 * no worker thread, so the last lines before a `process.exit` on SIGTERM are never lost.
 * pino writes one whole JSON line per call.
 */
export function createPrettyLogStream(destination: { write(text: string): unknown }, colorize: boolean) {
  const prettify = createLogPrettifier(colorize);
  return {
    write(jsonLine: string) {
      destination.write(prettify(jsonLine));
    },
  };
}
