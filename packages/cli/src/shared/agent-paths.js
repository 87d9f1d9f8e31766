import { lstat, mkdir } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the agent lives and what keeps other users out of it.
 *
 * The runtime folder (LOCKIT_RUNTIME_DIR, else $XDG_RUNTIME_DIR/lockit, else /tmp/lockit-UID)
 * holds the socket and the agent's token; it is made 0700 and both files 0600. The state folder
 * (LOCKIT_STATE_DIR, else $XDG_STATE_HOME/lockit, else ~/.local/state/lockit) holds what the
 * device must remember across agents: the server address, the user name, and the device memory
 * (key generation, vault counter: nothing secret, decision 0056).
 *
 * Node has no SO_PEERCRED (nor getpeereid), so the agent cannot ask the kernel who connected.
 * Three checks stand in for it (decision 0067):
 * 1. The folder: before the client connects or the agent listens, the runtime folder must be a
 *    real folder (not a link) owned by this user with mode 0700, and the socket a socket owned by
 *    this user with mode 0600. Another user cannot connect through a 0700 folder (the kernel
 *    checks search permission on the path), and cannot have planted a fake agent there: a fake
 *    agent in a folder someone else made under /tmp would otherwise receive the master password.
 * 2. The token: 32 random bytes the agent writes to a 0600 file beside the socket; every request
 *    carries it, and the agent drops a connection whose first request does not. It holds if the
 *    socket is reached by another path (a folder whose mode someone loosened later, a bind mount
 *    into a container, a socket passed on) by anyone who cannot read this user's files.
 * 3. Root and this user's own processes are not kept out: they can read the agent's memory
 *    anyway (ptrace, /proc/PID/mem). That is the same line ssh-agent and rbw draw.
 */

/** @typedef {{ runtimeDir: string, stateDir: string, socket: string, tokenFile: string, pidFile: string }} AgentPaths */

/** @returns {AgentPaths} */
export function agentPaths(env = process.env) {
  const uid = process.getuid?.() ?? 0;
  const runtimeDir =
    env['LOCKIT_RUNTIME_DIR'] ||
    (env['XDG_RUNTIME_DIR'] ? join(env['XDG_RUNTIME_DIR'], 'lockit') : join(tmpdir(), `lockit-${uid}`));
  const stateDir = env['LOCKIT_STATE_DIR'] || join(env['XDG_STATE_HOME'] || join(homedir(), '.local', 'state'), 'lockit');
  return {
    runtimeDir,
    stateDir,
    socket: join(runtimeDir, 'agent.sock'),
    tokenFile: join(runtimeDir, 'agent.token'),
    pidFile: join(runtimeDir, 'agent.pid'),
  };
}

/** The agent's folder or socket is not private to this user: nothing is sent through it. */
export class UnsafeAgentPathError extends Error {
  /** @override */
  name = 'UnsafeAgentPathError';
}

/**
 * Makes `dir` (and its parents) if missing, mode 0700, and checks that it is a folder of this
 * user's with no access for anyone else; throws UnsafeAgentPathError otherwise. An existing
 * folder of the wrong mode is refused, not repaired: someone else may already have used it.
 *
 * @param {string} dir
 */
export async function privateFolder(dir) {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const info = await lstat(dir);
  if (!info.isDirectory()) throw new UnsafeAgentPathError(`${dir} is not a folder.`);
  checkOwnerAndMode(dir, info, 0o700);
}

/**
 * Checks that the socket is one, this user's, mode 0600.
 *
 * @param {string} socket
 */
export async function checkSocket(socket) {
  const info = await lstat(socket);
  if (!info.isSocket()) throw new UnsafeAgentPathError(`${socket} is not a socket.`);
  checkOwnerAndMode(socket, info, 0o600);
}

/**
 * @param {string} path
 * @param {import('node:fs').Stats} info
 * @param {number} mode
 */
function checkOwnerAndMode(path, info, mode) {
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid) {
    throw new UnsafeAgentPathError(`${path} belongs to another user (uid ${info.uid}); lockit will not use it.`);
  }
  const actual = info.mode & 0o777;
  if (actual !== mode) {
    throw new UnsafeAgentPathError(
      `${path} has mode ${actual.toString(8).padStart(4, '0')}, not ${mode.toString(8).padStart(4, '0')}: other users may reach it, so lockit will not use it.`,
    );
  }
}
