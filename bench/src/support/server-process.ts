import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '../../..');
/** The built web app the server serves; LOCKIT_WEB_DIST points elsewhere (e.g. a private build). */
export const webDist = process.env.LOCKIT_WEB_DIST ?? join(repoRoot, 'packages/web/dist');

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface ServerProcess {
  url: string;
  pid: number;
  output: () => string;
  stop: () => Promise<void>;
}

export interface NodeProcessOptions {
  /** Script path relative to the repo root, run by `node --import tsx`. */
  script: string;
  env: Record<string, string>;
  /** A GET path that answers 2xx once the process serves. */
  readyPath: string;
  onLine?: (line: string) => void;
  nodeArgs?: string[];
}

/** Starts a Node process through tsx (as `npm run serve` does) and waits until it serves. */
export async function startNodeServer(options: NodeProcessOptions): Promise<ServerProcess> {
  const port = await freePort();
  let log = '';
  let pending = '';
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', options.script], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const onData = (chunk: Buffer) => {
    const text = chunk.toString();
    if (log.length < 200_000) log += text;
    if (!options.onLine) return;
    pending += text;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) options.onLine(line);
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  await waitUntilServing(`${url}${options.readyPath}`, child, () => log);
  return {
    url,
    pid: child.pid ?? -1,
    output: () => log,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function waitUntilServing(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the process exited (${child.exitCode}):\n${log()}`);
    try {
      const answer = await fetch(url);
      if (answer.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no answer from ${url} within 60 s:\n${log()}`);
}

export type DbKind = 'sqlite' | 'postgres';

export interface LockitServerOptions {
  /** The DATABASE_URL, from `newDatabase`. */
  databaseUrl: string;
  dataDir: string;
  /** `info` while seeding (the development mailer logs verification codes at info). */
  logLevel?: 'info' | 'warn';
  env?: Record<string, string>;
  onLine?: (line: string) => void;
}

/** The production server exactly as `npm run serve` runs it, on the built web app. */
export function startLockitServer(options: LockitServerOptions): Promise<ServerProcess> {
  if (!existsSync(join(webDist, 'index.html'))) {
    throw new Error(`The web app is not built at ${webDist}: run \`npm run build\` first.`);
  }
  return startNodeServer({
    script: 'packages/server/src/main.ts',
    readyPath: '/home',
    env: {
      NODE_ENV: 'production',
      DATA_DIR: options.dataDir,
      DATABASE_URL: options.databaseUrl,
      WEB_DIST_DIR: webDist,
      SERVER_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
      LOG_LEVEL: options.logLevel ?? 'warn',
      ...options.env,
    },
    ...(options.onLine ? { onLine: options.onLine } : {}),
    // BENCH_PROFILE_DIR: a V8 CPU profile of each server process, to find where time goes.
    ...(process.env.BENCH_PROFILE_DIR ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] } : {}),
  });
}

export function tempDir(prefix: string): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
