import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './repo-paths';

/** The command line's entry point, run as a user's shell runs it (a file of the repo's, not an import). */
const BIN = join(repoRoot, 'packages/cli/bin/lockit.js');
/** The workspace's bins (git-credential-lockit among them) on PATH, as an install puts them. */
const BIN_DIR = join(repoRoot, 'node_modules/.bin');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Who signs in: a username and master password (a VerifiedAccount's `account`, or a web test's). */
export interface CliCredentials {
  account: { username: string; password: string };
}

/** One terminal's lockit: its own runtime and state folders, so its own agent. */
export interface CliHome {
  runtimeDir: string;
  stateDir: string;
  env: NodeJS.ProcessEnv;
  run(args: string[], options?: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string }): Promise<CliRun>;
  /** Signs in with --password-stdin (and the code on the next line). */
  login(server: string, holder: CliCredentials, code?: string, extra?: string[]): Promise<CliRun>;
  /** Stops this home's agent (logout, else its pid) and removes the folders. */
  dispose(): Promise<void>;
}

/**
 * A fresh home for `lockit` (LOCKIT_RUNTIME_DIR and LOCKIT_STATE_DIR in a temporary folder), so
 * a test's agent, socket and state never touch the user's own or another test's.
 */
export async function cliHome(): Promise<CliHome> {
  const root = await mkdtemp(join(tmpdir(), 'cli-test-'));
  const runtimeDir = join(root, 'run');
  const stateDir = join(root, 'state');
  const env = {
    ...process.env,
    LOCKIT_RUNTIME_DIR: runtimeDir,
    LOCKIT_STATE_DIR: stateDir,
    PATH: `${BIN_DIR}:${process.env['PATH'] ?? ''}`,
  };
  const run: CliHome['run'] = (args, options = {}) =>
    new Promise((resolve) => {
      const child = execFile(
        process.execPath,
        [BIN, ...args],
        { env: { ...env, ...options.env }, cwd: options.cwd ?? root, timeout: 60_000 },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          resolve({ code, stdout, stderr });
        },
      );
      child.stdin?.end(options.input ?? '');
    });
  return {
    runtimeDir,
    stateDir,
    env,
    run,
    login: (server, holder, code, extra = []) =>
      run(['login', '--server', server, holder.account.username, '--password-stdin', ...extra], {
        input: `${holder.account.password}\n${code ?? ''}\n`,
      }),
    async dispose() {
      await run(['logout']);
      try {
        process.kill(Number(await readFile(join(runtimeDir, 'agent.pid'), 'utf8')), 'SIGTERM');
      } catch {
        // Already stopped.
      }
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Runs a program to its end: its exit code and output (`detached`: without a terminal, as in CI or a cron job). */
export function runProgram(
  file: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; input?: string; cwd?: string; detached?: boolean } = {},
) {
  return new Promise<CliRun>((resolve) => {
    // detached: a session of its own, so no controlling terminal (/dev/tty cannot be opened).
    const child = spawn(file, args, {
      env: options.env,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: options.detached ?? false,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // A program may exit before it reads all its input (a refusal): the pipe's EPIPE is not a failure.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}
