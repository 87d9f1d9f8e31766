/**
 * The agent's protocol: one JSON request per line from the thin client, one JSON answer per line
 * back, on a Unix socket. The first field of every request is the agent's token (see
 * agent-paths.js for what it defends).
 *
 * @typedef {{ token: string, command: string, args?: Record<string, unknown> }} AgentRequest
 * @typedef {{ ok: true, data: any } | { ok: false, code: import('./exit-codes.js').ErrorCode, message: string, data?: any }} AgentAnswer
 */

/** Lines longer than this are refused: a request is a command and its arguments, never a vault. */
export const MAX_REQUEST_BYTES = 1024 * 1024;

/**
 * Splits a byte stream into lines and hands each one to `onLine`; a line over `limit` bytes
 * calls `onOverflow` and stops.
 *
 * @param {import('node:net').Socket} socket
 * @param {(line: string) => void} onLine
 * @param {() => void} onOverflow
 * @param {number} [limit]
 */
export function readLines(socket, onLine, onOverflow, limit = Infinity) {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (/** @type {string} */ chunk) => {
    buffered += chunk;
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      onLine(line);
      newline = buffered.indexOf('\n');
    }
    if (buffered.length > limit) {
      buffered = '';
      onOverflow();
    }
  });
}
