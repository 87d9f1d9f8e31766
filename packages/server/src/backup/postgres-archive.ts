import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { BackupError, checkMigrations, COUNTED_TABLES, type LockitContents } from './lockit-contents';
import { runTool } from './postgres-tools';

/** What a pg_dump custom-format archive of a Lockit schema holds, read without restoring it. */
export interface ArchiveContents extends LockitContents {
  schema: string;
  /** `pg_restore --list` output: the archive's table of contents. */
  toc: string;
}

/**
 * Reads an archive's table of contents and the rows of kysely_migration and the counted
 * tables. Refuses (BackupError) a file that is not an archive, not of a Lockit schema, or of
 * a newer Lockit.
 */
export async function readArchive(pgRestore: string, file: string): Promise<ArchiveContents> {
  const toc = await runTool(
    pgRestore,
    ['--list', file],
    `${file} is not a Lockit backup, or is damaged (pg_restore cannot read it)`,
  );
  // `215; 1259 16388 TABLE <schema> kysely_migration <owner>`
  const migrationTable = /^\d+; \d+ \d+ TABLE (\S+) kysely_migration /m.exec(toc);
  if (!migrationTable?.[1]) checkMigrations(file, undefined);
  const schema = migrationTable![1]!;
  const rows = await countArchiveRows(pgRestore, file);
  checkMigrations(file, rows.migrations);
  const missing = COUNTED_TABLES.filter((table) => rows.counts[table] === undefined);
  if (missing.length > 0) throw new BackupError(`${file} is not a Lockit backup: it has no ${missing.join(', ')} table.`);
  return {
    schema,
    toc,
    migrations: rows.migrations,
    counts: { users: rows.counts.users!, entries: rows.counts.entries!, folders: rows.counts.folders! },
  };
}

/**
 * Streams the data of the counted tables out of the archive (COPY text: one row a line,
 * newlines inside values escaped) and counts lines, so a large vault is never held in memory.
 */
async function countArchiveRows(
  pgRestore: string,
  file: string,
): Promise<{ migrations: string[]; counts: Partial<Record<string, number>> }> {
  const tables = ['kysely_migration', ...COUNTED_TABLES];
  const child = spawn(pgRestore, ['--data-only', ...tables.flatMap((table) => ['--table', table]), '--file', '-', file], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  const counts: Partial<Record<string, number>> = {};
  const migrations: string[] = [];
  let current: string | undefined;
  for await (const line of createInterface({ input: child.stdout, crlfDelay: Infinity })) {
    if (current === undefined) {
      const copy = /^COPY [^.\s]+\.(\w+) .* FROM stdin;$/.exec(line);
      if (copy?.[1]) {
        current = copy[1];
        counts[current] = 0;
      }
    } else if (line === '\\.') {
      current = undefined;
    } else {
      counts[current] = (counts[current] ?? 0) + 1;
      if (current === 'kysely_migration') migrations.push(line.split('\t')[0]!);
    }
  }
  if ((await exited) !== 0) throw new BackupError(`${file} is damaged (pg_restore could not read its data): ${stderr.trim()}`);
  return { migrations: migrations.sort(), counts };
}
