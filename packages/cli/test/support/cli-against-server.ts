import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiPaths } from '@lockit/contract';
import { emptyDraft, sealEntry, sealFolderName, toAddRequest, type EntryDraft } from '@lockit/client-core';
import {
  createServerDatabase,
  createVerifiedAccount,
  LogCodeInbox,
  startServerProcess,
  startTamperingProxy,
  type TamperingProxy,
  type DatabaseKind,
  type ServerDatabase,
  type ServerProcess,
  type VerifiedAccount,
} from '@lockit/test-support';

export const databaseKind: DatabaseKind = process.env['LOCKIT_TEST_DB'] === 'postgres' ? 'postgres' : 'sqlite';

const BIN = fileURLToPath(new URL('../../bin/lockit.js', import.meta.url));
const BIN_DIR = fileURLToPath(new URL('../../../../node_modules/.bin', import.meta.url));

/** The real server (a process) on a fresh database of this project's kind. */
export interface CliTestServer {
  url: string;
  server: ServerProcess;
  /** A lying server in front of the real one: to the command line it is the server. */
  proxy: TamperingProxy;
  account(): Promise<VerifiedAccount>;
  stop(): Promise<void>;
}

export async function startCliTestServer(): Promise<CliTestServer> {
  const database: ServerDatabase = await createServerDatabase(databaseKind, 'cli');
  const inbox = new LogCodeInbox();
  const server = await startServerProcess({ env: { ...database.env, TRUST_PROXY: '1' }, logLevel: 'info', onLine: inbox.onLine });
  const proxy = await startTamperingProxy(server.url);
  let n = 0;
  return {
    url: server.url,
    server,
    proxy,
    account: () => createVerifiedAccount(server.url, inbox, { forwardedFor: `198.51.100.${++n}` }),
    async stop() {
      await proxy.close();
      await server.stop();
      await database.drop();
    },
  };
}

/** A seeded item: a draft's parts over an empty draft of its type. */
export type SeedItem = Partial<EntryDraft> & { serviceName: string; folder?: string };

/**
 * Seals items as the web app does (the client core's sealEntry) and adds them and their folders
 * through the API with the account's own session. Returns the ids by name.
 */
export async function seedVault(holder: VerifiedAccount, items: readonly SeedItem[]): Promise<Map<string, string>> {
  const folderIds = new Map<string, string>();
  for (const name of new Set(items.flatMap((item) => (item.folder ? [item.folder] : [])))) {
    const id = randomUUID();
    await holder.client.expect(201, 'POST', apiPaths.folders, { id, name: await sealFolderName(holder.vaultKey, id, name) });
    folderIds.set(name, id);
  }
  const ids = new Map<string, string>();
  for (const { folder, ...item } of items) {
    const id = randomUUID();
    const draft: EntryDraft = { ...emptyDraft(item.type ?? 'login'), ...item, folderId: folder ? folderIds.get(folder)! : null };
    const sealed = await sealEntry(holder.vaultKey, id, draft);
    await holder.client.expect(201, 'POST', apiPaths.addEntry, toAddRequest(sealed));
    ids.set(item.serviceName, id);
  }
  return ids;
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** One terminal's lockit: its own runtime and state folders, so its own agent. */
export interface CliHome {
  runtimeDir: string;
  stateDir: string;
  env: NodeJS.ProcessEnv;
  run(args: string[], options?: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string }): Promise<CliRun>;
  /** Signs in with --password-stdin (and the code on the next line). */
  login(server: string, holder: VerifiedAccount, code?: string, extra?: string[]): Promise<CliRun>;
  /** Stops this home's agent (logout, else its pid) and removes the folders. */
  dispose(): Promise<void>;
}

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
    child.stdin.end(options.input ?? '');
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}
