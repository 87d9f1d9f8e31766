import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { adminQuery, PG_URL, TEST_DB_KIND } from './test-database';

const serverDir = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  /** Everything the process wrote so far, stdout and stderr. */
  output(): string;
  /** Sends the signal and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** `node --import tsx src/main.ts`, exactly as `npm run serve`, on a free port, ready to serve. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${log}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not answer within 30 s:\n${log}`);
    }
    try {
      if ((await fetch(`${url}/api/user/profile`)).status === 401) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    child,
    exited,
    output: () => log,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** A database for server processes: a SQLite file in a temp folder, or a fresh PostgreSQL schema. */
export interface ProcessDatabase {
  kind: 'sqlite' | 'postgres';
  dataDir: string;
  /** DATA_DIR and DATABASE_URL for the server's environment. */
  env: Record<string, string>;
  sqliteFile: string;
  schema: string;
  /** Runs a query as the test, outside any server. */
  query<T extends Record<string, unknown>>(text: string): Promise<T[]>;
  drop(): Promise<void>;
}

export async function createProcessDatabase(kind: 'sqlite' | 'postgres' = TEST_DB_KIND): Promise<ProcessDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lockit-process-'));
  const sqliteFile = path.join(dataDir, 'lockit.sqlite');
  const schema = `lockit_process_${randomBytes(5).toString('hex')}`;
  let databaseUrl = sqliteFile;
  if (kind === 'postgres') {
    await adminQuery(`CREATE SCHEMA ${schema}`);
    const url = new URL(PG_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = url.toString();
  }
  return {
    kind,
    dataDir,
    env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
    sqliteFile,
    schema,
    async query<T extends Record<string, unknown>>(text: string): Promise<T[]> {
      if (kind === 'sqlite') {
        const { default: SQLite } = await import('better-sqlite3');
        const connection = new SQLite(sqliteFile, { readonly: true });
        try {
          return connection.prepare(text).all() as T[];
        } finally {
          connection.close();
        }
      }
      const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
      await client.connect();
      try {
        return (await client.query<T>(text)).rows;
      } finally {
        await client.end();
      }
    },
    async drop() {
      if (kind === 'postgres') await adminQuery(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
