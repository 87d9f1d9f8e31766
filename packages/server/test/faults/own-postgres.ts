import { execFile } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '@lockit/test-support';

const run = promisify(execFile);
const BIN = process.env.LOCKIT_TEST_PG_BIN ?? '/usr/lib/postgresql/15/bin';

/**
 * A PostgreSQL server of the test's own (initdb in a temp dir, on a free port), for tests
 * that stop, restart or break it: the machine's shared server is never touched. PostgreSQL
 * refuses to run as root, so under root it runs as the `postgres` OS user.
 */
export interface OwnPostgres {
  url: string;
  port: number;
  /** pg_ctl restart with the given mode; resolves once it accepts connections again. */
  restart(mode: 'fast' | 'immediate'): Promise<void>;
  /** pg_terminate_backend on every connection to `lockit` but the caller's; how many it ended. */
  terminateConnections(): Promise<number>;
  /** Runs one query on a fresh connection. */
  query<R extends pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<R[]>;
  stop(): Promise<void>;
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lockit-own-pg-'));
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const as = (command: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(BIN, command), ...args]) : run(path.join(BIN, command), args);
  const data = path.join(dir, 'data');
  const port = await freePort();
  await as('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const ctl = (...args: string[]) => as('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', ...args]);
  await ctl('start');
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const query = async <R extends pg.QueryResultRow>(sql: string, values?: unknown[], url = adminUrl) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<R>(sql, values)).rows;
    } finally {
      await client.end();
    }
  };
  await query('create database lockit');
  const url = `postgres://postgres@127.0.0.1:${port}/lockit`;
  return {
    url,
    port,
    async restart(mode) {
      await ctl('restart', '-m', mode);
    },
    async terminateConnections() {
      const rows = await query<{ ended: boolean }>(
        "select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = 'lockit' and pid <> pg_backend_pid()",
      );
      return rows.filter((row) => row.ended).length;
    },
    query: (sql, values) => query(sql, values, url),
    async stop() {
      await ctl('stop', '-m', 'immediate').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
