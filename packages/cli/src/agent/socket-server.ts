import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { checkSocket, privateFolder, type AgentPaths } from '../shared/agent-paths.js';
import { MAX_REQUEST_BYTES, readLines } from '../shared/protocol.js';
import { AgentError } from './agent-error';

export type Handler = (command: string, args: Record<string, unknown>) => Promise<unknown>;

/**
 * Listens on the agent's socket (decision 0067): the runtime folder checked 0700 and this
 * user's, the socket made under umask 077 and set to 0600, a fresh 32-byte token written 0600
 * beside it. A connection whose request does not carry the token is answered once, with no
 * detail, and closed; nothing of the vault is read for it. Requests of one connection are
 * handled one after another.
 */
export async function listen(paths: AgentPaths, handler: Handler): Promise<{ server: Server; close: () => Promise<void> }> {
  await privateFolder(paths.runtimeDir);
  const token = randomBytes(32).toString('base64url');
  await rm(paths.tokenFile, { force: true });
  await writeFile(paths.tokenFile, token, { mode: 0o600, flag: 'wx' });
  await rm(paths.socket, { force: true });
  const expected = Buffer.from(token);

  const server = createServer((socket) => serve(socket, expected, handler));
  process.umask(0o077);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(paths.socket, () => resolve());
  });
  await chmod(paths.socket, 0o600);
  await checkSocket(paths.socket);
  await writeFile(paths.pidFile, String(process.pid), { mode: 0o600 });
  return {
    server,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([paths.socket, paths.tokenFile, paths.pidFile].map((path) => rm(path, { force: true })));
    },
  };
}

function serve(socket: Socket, expected: Buffer, handler: Handler): void {
  let queue = Promise.resolve();
  const answer = (value: unknown) => socket.write(`${JSON.stringify(value)}\n`);
  readLines(
    socket,
    (line) => {
      queue = queue.then(async () => {
        let request: { token?: unknown; command?: unknown; args?: unknown };
        try {
          request = JSON.parse(line) as typeof request;
        } catch {
          answer({ ok: false, code: 'usage', message: 'Not a request.' });
          return;
        }
        const token = Buffer.from(typeof request.token === 'string' ? request.token : '');
        if (token.length !== expected.length || !timingSafeEqual(token, expected)) {
          answer({ ok: false, code: 'agent', message: 'This agent does not know you (wrong or missing token).' });
          socket.end();
          socket.destroy();
          return;
        }
        const args = typeof request.args === 'object' && request.args !== null ? (request.args as Record<string, unknown>) : {};
        try {
          answer({ ok: true, data: await handler(String(request.command), args) });
        } catch (error) {
          if (error instanceof AgentError) answer({ ok: false, code: error.code, message: error.message, data: error.data });
          else answer({ ok: false, code: 'error', message: error instanceof Error ? error.message : String(error) });
        }
      });
    },
    () => {
      answer({ ok: false, code: 'usage', message: 'The request is too long.' });
      socket.destroy();
    },
    MAX_REQUEST_BYTES,
  );
  socket.on('error', () => socket.destroy());
}
