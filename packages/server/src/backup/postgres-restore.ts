import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migrations } from '../db/migrations/index';
import { checkArchiveEntries } from './archive-entries';
import { decodeCopyRow, isIgnorableLine, parseCopyHeader } from './copy-text';
import { BackupError, forgetProcessesSql, type LockitContents } from './lockit-contents';
import { readArchive } from './postgres-archive';
import { connect, quote, readContents, refuseWhileServing, serverInfo } from './postgres-connection';
import { checkToolVersion, findPostgresTool } from './postgres-tools';

/** Kysely's bookkeeping: made by the migrator here, never loaded from the archive. */
const MIGRATOR_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);
/** Rows per INSERT: well under PostgreSQL's 65,535 parameters for any Lockit table. */
const ROWS_PER_INSERT = 200;

/**
 * Restores an archive's rows into the schema DATABASE_URL selects, in one transaction:
 * every table of the schema is dropped (tables of a newer version too, so an older version
 * restored for a rollback finds exactly its own schema), Lockit's own migrations make the
 * tables again up to the archive's last migration, the archive's rows are inserted, and the
 * row counts are compared with the archive's before COMMIT. Any error rolls the whole
 * transaction back: the database is as it was.
 *
 * Security invariants: nothing the archive holds runs as SQL. Its table of contents may list
 * only the schema, tables, rows, indexes and constraints (archive-entries.ts); the schema is
 * made by this code's migrations, never by the archive; only rows are read from it
 * (`pg_restore --data-only`), into tables the migrations made and columns they have, as bound
 * parameters. An archive with anything else is refused, and nothing is changed. The role in
 * DATABASE_URL needs no superuser right: owning the schema is enough.
 */
export async function restorePostgres(
  file: string,
  url: string,
  force: boolean,
): Promise<{ contents: LockitContents; warning: string | undefined }> {
  const pgRestore = findPostgresTool('pg_restore');
  const archive = await readArchive(pgRestore, file);
  const withRows = checkArchiveEntries(archive.toc, archive.schema);
  const client = await connect(url);
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
    const warning = await refuseWhileServing(client, archive.schema, force);
    const schema = quote(archive.schema);
    await client.query('begin');
    try {
      await client.query(`create schema if not exists ${schema}`);
      const present = await tablesOf(client, archive.schema);
      for (const name of present) await client.query(`drop table if exists ${schema}.${quote(name)} cascade`);
      await migrateTo(client, archive.schema, archive.migrations.at(-1)!);
      const made = await columnsOf(client, archive.schema);
      const unknown = withRows.filter((table) => !made.has(table));
      if (unknown.length > 0) {
        throw new BackupError(
          `${file} holds rows of tables Lockit's migrations do not make (${unknown.join(', ')}): it is not a Lockit backup, or was changed. Nothing was changed.`,
        );
      }
      const migrated = (await client.query<{ name: string }>(`select name from ${schema}.kysely_migration order by name`)).rows;
      if (JSON.stringify(migrated.map((row) => row.name)) !== JSON.stringify(archive.migrations)) {
        throw new BackupError(`${file} lists its migrations out of this version's order: it was changed. Nothing was changed.`);
      }
      for (const table of await insertOrder(client, archive.schema, withRows)) {
        if (MIGRATOR_TABLES.has(table)) continue;
        await loadRows(client, pgRestore, file, archive.schema, table, made.get(table)!);
      }
      for (const sql of forgetProcessesSql(new Set(made.keys()), (t) => `${schema}.${quote(t)}`)) {
        await client.query(sql);
      }
      const contents = await readContents(client, archive.schema);
      if (JSON.stringify(contents.counts) !== JSON.stringify(archive.counts)) {
        throw new BackupError(
          `The restored rows (${JSON.stringify(contents.counts)}) differ from the backup's (${JSON.stringify(archive.counts)}): rolled back, nothing was changed.`,
        );
      }
      await client.query('commit');
      return { contents, warning };
    } catch (error) {
      await client.query('rollback').catch(() => {});
      if (error instanceof BackupError) throw error;
      throw new BackupError(`The restore failed and was rolled back (nothing was changed): ${(error as Error).message}`);
    }
  } finally {
    await client.end();
  }
}

async function tablesOf(client: pg.Client, schema: string): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>('select tablename as name from pg_tables where schemaname = $1', [
    schema,
  ]);
  return rows.map((row) => row.name);
}

/** Each table of the schema with its columns. */
async function columnsOf(client: pg.Client, schema: string): Promise<Map<string, Set<string>>> {
  const { rows } = await client.query<{ table: string; column: string }>(
    `select table_name as "table", column_name as "column" from information_schema.columns where table_schema = $1`,
    [schema],
  );
  const tables = new Map<string, Set<string>>();
  for (const row of rows) tables.set(row.table, (tables.get(row.table) ?? new Set()).add(row.column));
  return tables;
}

/**
 * Runs this code's migrations up to `last` on the restore's own connection, inside its
 * transaction (the migrator opens none of its own), so a failure later rolls them back too.
 */
async function migrateTo(client: pg.Client, schema: string, last: string): Promise<void> {
  const connection = { query: client.query.bind(client), release: () => {} };
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: { connect: async () => connection, end: async () => {} } as never }),
  });
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: schema,
    disableTransactions: true,
  });
  const { error, results } = await migrator.migrateTo(last);
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new BackupError(`Making Lockit's tables failed${failed ? ` (${failed.migrationName})` : ''}: ${String(error)}`);
  }
}

/** The tables with rows, parents before the tables whose foreign keys point at them. */
async function insertOrder(client: pg.Client, schema: string, tables: string[]): Promise<string[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `select c.relname as child, p.relname as parent from pg_constraint k
       join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
       join pg_namespace n on n.oid = c.relnamespace
     where k.contype = 'f' and n.nspname = $1 and c.oid <> p.oid`,
    [schema],
  );
  const ordered: string[] = [];
  const visit = (table: string, path: Set<string>) => {
    if (ordered.includes(table) || path.has(table)) return;
    path.add(table);
    for (const { parent } of rows.filter((row) => row.child === table)) visit(parent, path);
    path.delete(table);
    if (tables.includes(table)) ordered.push(table);
  };
  for (const table of [...tables].sort()) visit(table, new Set());
  return ordered;
}

/** Streams one table's rows out of the archive and inserts them as bound parameters. */
async function loadRows(
  client: pg.Client,
  pgRestore: string,
  file: string,
  schema: string,
  table: string,
  columns: Set<string>,
): Promise<void> {
  const child = spawn(pgRestore, ['--data-only', '--table', table, '--file', '-', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  let header: ReturnType<typeof parseCopyHeader> | undefined;
  let batch: Array<Array<string | null>> = [];
  const flush = async () => {
    if (!header || batch.length === 0) return;
    const names = header.columns.map(quote).join(', ');
    const width = header.columns.length;
    const values = batch.map((_, r) => `(${header!.columns.map((__, c) => `$${r * width + c + 1}`).join(', ')})`).join(', ');
    await client.query(`insert into ${quote(schema)}.${quote(table)} (${names}) values ${values}`, batch.flat());
    batch = [];
  };
  try {
    for await (const line of createInterface({ input: child.stdout, crlfDelay: Infinity })) {
      if (!header) {
        if (isIgnorableLine(line)) continue;
        header = parseCopyHeader(line);
        const missing = header.columns.filter((column) => !columns.has(column));
        if (header.schema !== schema || header.table !== table || missing.length > 0) {
          throw new BackupError(
            `${file} holds rows for ${header.schema}.${header.table} (${header.columns.join(', ')}), which Lockit's migrations did not make. Nothing was changed.`,
          );
        }
      } else if (line === '\\.') {
        await flush();
        header = undefined;
      } else {
        const row = decodeCopyRow(line);
        if (row.length !== header.columns.length)
          throw new BackupError(`${file} is damaged: a row of ${table} has the wrong number of fields.`);
        batch.push(row);
        if (batch.length >= ROWS_PER_INSERT) await flush();
      }
    }
  } finally {
    if (child.exitCode === null) child.kill();
  }
  if ((await exited) !== 0) throw new BackupError(`${file} is damaged (pg_restore could not read its data): ${stderr.trim()}`);
  if (header) throw new BackupError(`${file} is damaged: the rows of ${table} end early.`);
}
