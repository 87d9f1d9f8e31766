import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { reserveBackupFile } from './backup-files';
import { BackupError, checkMigrations, COUNTED_TABLES, forgetProcessesSql, type LockitContents } from './lockit-contents';
import { readArchive } from './postgres-archive';
import { checkToolVersion, findPostgresTool, runTool } from './postgres-tools';

/** A server whose heartbeat is younger than this is taken to be running (jobs' heartbeat table). */
export const HEARTBEAT_FRESH_MS = 60_000;

/**
 * pg_dump of the schema DATABASE_URL selects, in custom format, while servers keep writing.
 * The counts are read in a repeatable-read transaction whose snapshot pg_dump is given
 * (`--snapshot`), so they describe exactly the rows in the file; the archive is then read
 * back and its rows counted again.
 */
export async function backupPostgres(url: string, outDir: string): Promise<{ file: string; contents: LockitContents }> {
  const pgDump = findPostgresTool('pg_dump');
  const pgRestore = findPostgresTool('pg_restore');
  const client = await connect(url);
  try {
    const { schema, version } = await serverInfo(client);
    if (!schema) throw new BackupError('DATABASE_URL selects no existing schema: check its search_path.');
    await checkToolVersion(pgDump, version);
    await client.query('begin isolation level repeatable read read only');
    const snapshot = (await client.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0]!.id;
    const contents = await readContents(client, schema);
    const file = await reserveBackupFile(outDir, '.dump');
    try {
      await runTool(
        pgDump,
        ['--dbname', libpqUrl(url), '--format=custom', '--schema', schema, '--snapshot', snapshot, '--file', file],
        'pg_dump failed',
      );
      await client.query('commit');
      const archive = await readArchive(pgRestore, file);
      if (JSON.stringify(archive.counts) !== JSON.stringify(contents.counts)) {
        throw new BackupError(
          `The dump's rows (${JSON.stringify(archive.counts)}) differ from the database's (${JSON.stringify(contents.counts)}).`,
        );
      }
      return { file, contents };
    } catch (error) {
      await rm(file, { force: true });
      throw error;
    }
  } finally {
    await client.end();
  }
}

/**
 * Restores an archive into the schema DATABASE_URL selects, in one transaction run by psql:
 * every table of the schema is dropped (tables of a newer version too, so an older version
 * restored for a rollback finds exactly its own schema), the archive's objects and rows are
 * loaded, and the row counts are compared with the archive's before COMMIT. Any error rolls
 * the whole transaction back: the database is as it was.
 */
export async function restorePostgres(
  file: string,
  url: string,
  force: boolean,
): Promise<{ contents: LockitContents; warning: string | undefined }> {
  const pgRestore = findPostgresTool('pg_restore');
  const psql = findPostgresTool('psql');
  const archive = await readArchive(pgRestore, file);
  const client = await connect(url);
  let warning: string | undefined;
  const work = await mkdtemp(path.join(tmpdir(), 'lockit-restore-'));
  try {
    const info = await serverInfo(client);
    await checkToolVersion(pgRestore, info.version);
    const target = info.schema ?? info.searchPath;
    if (target !== archive.schema) {
      throw new BackupError(
        `${file} holds the schema "${archive.schema}" but DATABASE_URL selects "${target ?? '(none)'}": ` +
          `restore into a database whose search_path is ${archive.schema}. Nothing was changed.`,
      );
    }
    warning = await refuseWhileServing(client, archive.schema, force);
    const tables = (
      await client.query<{ name: string }>('select tablename as name from pg_tables where schemaname = $1', [archive.schema])
    ).rows.map((row) => row.name);
    // The schema itself is kept (its owner, comment and grants are the operator's): its entries are left out.
    const listFile = path.join(work, 'toc.list');
    const toc = archive.toc.replace(/^\d+; \d+ \d+ (?:SCHEMA - |(?:COMMENT|ACL) - SCHEMA ).*$/gm, (line) => `;${line}`);
    await writeFile(listFile, toc, { mode: 0o600 });
    const schema = quote(archive.schema);
    const before = path.join(work, 'before.sql');
    const drops = tables.map((name) => `drop table if exists ${schema}.${quote(name)} cascade;`).join('\n');
    await writeFile(before, `create schema if not exists ${schema};\n${drops}\n`, { mode: 0o600 });
    const body = path.join(work, 'body.sql');
    await runTool(pgRestore, ['--no-owner', '--use-list', listFile, '--file', body, file], `${file} is damaged`);
    const after = path.join(work, 'after.sql');
    const { users, entries, folders } = archive.counts;
    const archived = new Set([...archive.toc.matchAll(/^\d+; \d+ \d+ TABLE \S+ (\S+) /gm)].map((match) => match[1]!));
    const forget = forgetProcessesSql(archived, (table) => `${schema}.${quote(table)}`).map((sql) => `${sql};\n`);
    const check = `${forget.join('')}do $check$ begin
  if (select count(*) from ${schema}.users) <> ${users} or (select count(*) from ${schema}.entries) <> ${entries}
     or (select count(*) from ${schema}.folders) <> ${folders} then
    raise exception 'the restored rows differ from the backup''s';
  end if;
end $check$;\n`;
    await writeFile(after, check, { mode: 0o600 });
    // psql's --single-transaction wraps all three files in one BEGIN … COMMIT.
    await runTool(
      psql,
      ['--no-psqlrc', '--quiet', '--single-transaction', '--set', 'ON_ERROR_STOP=1', '--dbname', libpqUrl(url)].concat([
        '--file',
        before,
        '--file',
        body,
        '--file',
        after,
      ]),
      'The restore failed and was rolled back (nothing was changed)',
    );
    const contents = await readContents(client, archive.schema);
    return { contents, warning };
  } finally {
    await rm(work, { recursive: true, force: true });
    await client.end();
  }
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {}); // a dropped connection surfaces on the next query instead
  try {
    await client.connect();
    return client;
  } catch (error) {
    throw new BackupError(`Could not connect to PostgreSQL (DATABASE_URL): ${(error as Error).message}`);
  }
}

async function serverInfo(
  client: pg.Client,
): Promise<{ schema: string | null; searchPath: string | undefined; version: number }> {
  const { rows } = await client.query<{ schema: string | null; path: string; version: string }>(
    `select current_schema() as schema, current_setting('search_path') as path,
            current_setting('server_version_num') as version`,
  );
  const row = rows[0]!;
  const first = row.path
    .split(',')
    .map((part) => part.trim().replace(/^"(.*)"$/, '$1'))
    .find((part) => part !== '$user' && part !== '');
  return { schema: row.schema, searchPath: first, version: Number(row.version) };
}

/** Migrations and counts of a live schema (in the caller's transaction, if one is open). */
async function readContents(client: pg.Client, schema: string): Promise<LockitContents> {
  const s = quote(schema);
  const present = (
    await client.query<{ name: string }>('select tablename as name from pg_tables where schemaname = $1', [schema])
  ).rows.map((row) => row.name);
  const names = present.includes('kysely_migration')
    ? (await client.query<{ name: string }>(`select name from ${s}.kysely_migration order by name`)).rows.map((r) => r.name)
    : undefined;
  checkMigrations(`The schema ${schema}`, names);
  const count = async (table: (typeof COUNTED_TABLES)[number]) =>
    Number((await client.query<{ n: string }>(`select count(*) as n from ${s}.${table}`)).rows[0]!.n);
  return {
    migrations: names ?? [],
    counts: { users: await count('users'), entries: await count('entries'), folders: await count('folders') },
  };
}

/**
 * Each server writes a heartbeat row in server_processes while it runs (jobs). A fresh one
 * means a server is using the schema: restoring under it would lose its writes and confuse
 * its caches, so the restore refuses unless forced (a server killed without a clean stop
 * leaves a row that stays fresh for up to a minute).
 */
async function refuseWhileServing(client: pg.Client, schema: string, force: boolean): Promise<string | undefined> {
  const s = quote(schema);
  const hasTable = (
    await client.query('select 1 from pg_tables where schemaname = $1 and tablename = $2', [schema, 'server_processes'])
  ).rowCount;
  if (!hasTable) {
    return 'This database has no heartbeat table (an older Lockit): make sure no server is running on it.';
  }
  const { rows } = await client.query<{ host: string; pid: number }>(
    `select host, pid from ${s}.server_processes where heartbeat_at > $1`,
    [Date.now() - HEARTBEAT_FRESH_MS],
  );
  if (rows.length === 0) return undefined;
  const servers = rows.map((row) => `${row.host} pid ${row.pid}`).join(', ');
  if (force) return `--force: restoring although servers look alive (${servers}); restart them afterwards.`;
  throw new BackupError(
    `Lockit servers are using this database (${servers}, heartbeat within the last minute): stop them all, then restore again. ` +
      'Nothing was changed. (--force restores anyway, e.g. after a crash left a fresh heartbeat.)',
  );
}

/**
 * DATABASE_URL as libpq reads it. Node's URL writes a space in the query as `+`, which
 * node-postgres decodes but libpq (pg_dump, psql) does not: `options=-c+search_path=x` fails
 * there with "unrecognized configuration parameter". Percent-encoding suits both.
 */
export function libpqUrl(url: string): string {
  const parsed = new URL(url);
  parsed.search = [...parsed.searchParams]
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');
  return parsed.toString();
}

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
