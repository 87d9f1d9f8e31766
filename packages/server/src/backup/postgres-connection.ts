import pg from 'pg';
import { BackupError, checkMigrations, COUNTED_TABLES, type LockitContents } from './lockit-contents';

/** A server whose heartbeat is younger than this is taken to be running (jobs' heartbeat table). */
export const HEARTBEAT_FRESH_MS = 60_000;

export async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {}); // a dropped connection surfaces on the next query instead
  try {
    await client.connect();
    return client;
  } catch (error) {
    throw new BackupError(`Could not connect to PostgreSQL (DATABASE_URL): ${(error as Error).message}`);
  }
}

export async function serverInfo(
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
export async function readContents(client: pg.Client, schema: string): Promise<LockitContents> {
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
export async function refuseWhileServing(client: pg.Client, schema: string, force: boolean): Promise<string | undefined> {
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

/** A PostgreSQL identifier, quoted. */
export function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
