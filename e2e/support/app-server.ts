import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '../..');
const webDist = join(repoRoot, 'packages/web/dist');

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

export interface AppServer {
  url: string;
  dataDir: string;
  databasePath: string;
  process: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts the production server exactly as `npm run serve` does, on the built web app, with a
 * fresh SQLite file and mail to the given SMTP URL.
 */
export async function startAppServer(options: { smtpUrl: string; env?: Record<string, string> }): Promise<AppServer> {
  if (!existsSync(join(webDist, 'index.html'))) {
    throw new Error('The web app is not built: run `npm run build` first (npm test does).');
  }
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'lockit-e2e-'));
  const databasePath = join(dataDir, 'lockit.sqlite');
  let log = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databasePath,
      SMTP_URL: options.smtpUrl,
      MAIL_FROM: 'Lockit <no-reply@lockit.test>',
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  await waitUntilServing(url, child, () => log);
  return {
    url,
    dataDir,
    databasePath,
    process: child,
    output: () => log,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function waitUntilServing(url: string, child: ChildProcess, log: () => string) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${log()}`);
    try {
      const answer = await fetch(`${url}/home`);
      if (answer.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the server did not answer within 30 s:\n${log()}`);
}
