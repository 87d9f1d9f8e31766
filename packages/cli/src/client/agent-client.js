import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { checkSocket, privateFolder, UnsafeAgentPathError } from '../shared/agent-paths.js';
import { readLines } from '../shared/protocol.js';

/** @typedef {import('../shared/agent-paths.js').AgentPaths} AgentPaths */
/** @typedef {import('../shared/protocol.js').AgentAnswer} AgentAnswer */

/** A failed command: its message for the terminal and its exit code's name. */
export class CommandError extends Error {
  /**
   * @param {import('../shared/exit-codes.js').ErrorCode} code
   * @param {string} message
   * @param {unknown} [data]
   */
  constructor(code, message, data) {
    super(message);
    this.name = 'CommandError';
    this.code = code;
    this.data = data;
  }
}

/**
 * The package's folder: two up from this file in src/client, one up from dist/lockit.mjs, where
 * the bundle (scripts/bundle.mjs) defines `globalThis.lockitBundled` as true.
 */
const PACKAGE_ROOT = new URL(/** @type {any} */ (globalThis).lockitBundled ? '../' : '../../', import.meta.url);
const AGENT_MAIN = fileURLToPath(new URL('src/agent/main.ts', PACKAGE_ROOT));

/**
 * Sends one command to the agent and returns its answer's data; throws CommandError with the
 * agent's refusal. With `start`, an agent that is not running is started first (login only: a
 * new agent has no session, so other commands say "not signed in" without starting one).
 *
 * Before anything is sent, the runtime folder must be this user's and 0700 and the socket this
 * user's and 0600 (agent-paths.js): a socket someone else planted never hears a password.
 *
 * @param {AgentPaths} paths
 * @param {string} command
 * @param {Record<string, unknown>} [args]
 * @param {{ start?: boolean }} [options]
 */
export async function ask(paths, command, args = {}, { start = false } = {}) {
  let connection = await open(paths);
  if (!connection) {
    if (!start) throw new CommandError('loggedOut', 'Not signed in. Run: lockit login');
    await startAgent(paths);
    connection = await open(paths);
    if (!connection) throw new CommandError('agent', 'The lockit agent did not start.');
  }
  try {
    const answer = await connection.send({ command, args });
    if (answer.ok) return answer.data;
    throw new CommandError(answer.code, answer.message, answer.data);
  } finally {
    connection.close();
  }
}

/**
 * A connection to the running agent, or null when none answers on the socket.
 *
 * @param {AgentPaths} paths
 */
async function open(paths) {
  try {
    await privateFolder(paths.runtimeDir);
    await checkSocket(paths.socket);
  } catch (error) {
    if (error instanceof UnsafeAgentPathError) throw new CommandError('agent', error.message);
    return null;
  }
  let token;
  try {
    token = (await readFile(paths.tokenFile, 'utf8')).trim();
  } catch {
    return null;
  }
  const socket = connect(paths.socket);
  const connected = await new Promise((resolve) => {
    socket.once('connect', () => resolve(true));
    socket.once('error', () => resolve(false));
  });
  if (!connected) return null;
  /** @type {((answer: AgentAnswer) => void)[]} */
  const waiting = [];
  socket.on('close', () => {
    for (const resolve of waiting.splice(0))
      resolve({ ok: false, code: 'agent', message: 'The lockit agent closed the connection.' });
  });
  readLines(
    socket,
    (line) => {
      let answer;
      try {
        answer = JSON.parse(line);
      } catch {
        answer = { ok: false, code: 'agent', message: 'The lockit agent sent something that is not an answer.' };
      }
      waiting.shift()?.(answer);
    },
    () => socket.destroy(),
  );
  return {
    /** @param {{ command: string, args: Record<string, unknown> }} request @returns {Promise<AgentAnswer>} */
    send(request) {
      return new Promise((resolve) => {
        waiting.push(resolve);
        socket.write(`${JSON.stringify({ token, ...request })}\n`);
      });
    },
    close() {
      socket.end();
    },
  };
}

/**
 * Starts the agent detached from this terminal: Node with tsx (the agent is TypeScript and loads
 * the client core), no secret in its arguments or environment, stdout read only for its
 * "ready" line.
 *
 * @param {AgentPaths} paths
 */
async function startAgent(paths) {
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), AGENT_MAIN], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: fileURLToPath(PACKAGE_ROOT),
    env: {
      ...process.env,
      LOCKIT_RUNTIME_DIR: paths.runtimeDir,
      LOCKIT_STATE_DIR: paths.stateDir,
    },
  });
  let errors = '';
  child.stderr?.setEncoding('utf8').on('data', (/** @type {string} */ chunk) => (errors += chunk));
  const ready = await new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), 30_000);
    child.stdout?.setEncoding('utf8').on('data', (/** @type {string} */ chunk) => {
      if (chunk.includes('ready')) {
        clearTimeout(timer);
        resolve(true);
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
  child.stdout?.destroy();
  child.stderr?.destroy();
  child.unref();
  if (!ready)
    throw new CommandError(
      'agent',
      `The lockit agent did not start.${errors ? `\n${errors.trim().split('\n').slice(-3).join('\n')}` : ''}`,
    );
}
