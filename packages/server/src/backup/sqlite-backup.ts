import { randomBytes } from 'node:crypto';
import { constants, existsSync } from 'node:fs';
import { chmod, copyFile, link, mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { reserveBackupFile, backupStem } from './backup-files';
import { BackupError, checkMigrations, COUNTED_TABLES, forgetProcessesSql, type LockitContents } from './lockit-contents';

/** One backup step copies every page: the copy is one read transaction, a consistent snapshot. */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies a live SQLite database with SQLite's online backup API while servers keep writing,
 * then checks the copy. The whole copy is made in a single step: SQLite restarts a stepped
 * backup whenever another process writes, which under a steady load might never finish.
 */
export async function backupSqlite(file: string, outDir: string): Promise<{ file: string; contents: LockitContents }> {
  if (!existsSync(file)) throw new BackupError(`There is no database at ${file}: check DATA_DIR and DATABASE_URL.`);
  const target = await reserveBackupFile(outDir, '.sqlite');
  try {
    const source = new SQLite(file, { fileMustExist: true, timeout: 5000 });
    try {
      await source.backup(target, { progress: () => ALL_PAGES });
    } finally {
      source.close();
    }
    const copy = new SQLite(target, { fileMustExist: true });
    let contents: LockitContents;
    try {
      copy.pragma('journal_mode = DELETE'); // a single self-contained file, no -wal beside it
      contents = inspectSqlite(copy, target);
    } finally {
      copy.close();
    }
    await chmod(target, 0o600);
    return { file: target, contents };
  } catch (error) {
    await rm(target, { force: true });
    throw error;
  }
}

/**
 * Replaces the database at `target` with a backup. Nothing at `target` changes until the
 * backup has been copied beside it and checked (integrity, migrations, counts); then the copy
 * is renamed over it, which is atomic. A running server holds the file open, and then the
 * exclusive lock below fails: the restore refuses rather than pull the file from under it.
 * The replaced database is kept as `<target>.before-restore-<time>`.
 */
export async function restoreSqlite(
  backupFile: string,
  target: string,
): Promise<{ contents: LockitContents; keptAs: string | undefined }> {
  if (!existsSync(backupFile)) throw new BackupError(`There is no file at ${backupFile}.`);
  await mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.restore-${randomBytes(4).toString('hex')}.tmp`;
  await copyFile(backupFile, temp);
  try {
    await chmod(temp, 0o600);
    const check = openChecked(temp, backupFile);
    let contents: LockitContents;
    try {
      check.pragma('journal_mode = DELETE');
      contents = inspectSqlite(check, backupFile);
      for (const statement of forgetProcessesSql(tableNames(check), (table) => table)) check.exec(statement);
    } finally {
      check.close();
    }
    await syncFile(temp);
    const keptAs = await swapIn(temp, target);
    return { contents, keptAs };
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Integrity, migrations and counts of an open Lockit SQLite database; throws BackupError. */
export function inspectSqlite(database: SQLite.Database, source: string): LockitContents {
  const problems = guard(
    source,
    () => database.pragma('integrity_check', { simple: false }) as Array<{ integrity_check: string }>,
  );
  const lines = problems.map((row) => row.integrity_check);
  if (lines.join('') !== 'ok') {
    throw new BackupError(`${source} failed SQLite's integrity check: ${lines.slice(0, 3).join('; ')}`);
  }
  const tables = tableNames(database);
  const names = tables.has('kysely_migration')
    ? (database.prepare('select name from kysely_migration order by name').all() as Array<{ name: string }>).map(
        (row) => row.name,
      )
    : undefined;
  checkMigrations(source, names);
  const missing = COUNTED_TABLES.filter((table) => !tables.has(table));
  if (missing.length > 0) throw new BackupError(`${source} is not a Lockit backup: it has no ${missing.join(', ')} table.`);
  const count = (table: string) => (database.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
  return {
    migrations: names ?? [],
    counts: { users: count('users'), entries: count('entries'), folders: count('folders') },
  };
}

function tableNames(database: SQLite.Database): Set<string> {
  const rows = database.prepare(`select name from sqlite_master where type = 'table'`).all() as Array<{ name: string }>;
  return new Set(rows.map((row) => row.name));
}

function openChecked(file: string, source: string): SQLite.Database {
  const database = new SQLite(file, { fileMustExist: true, timeout: 0 });
  try {
    guard(source, () => database.prepare('select count(*) from sqlite_master').get());
    return database;
  } catch (error) {
    database.close();
    throw error;
  }
}

/** SQLite's "not a database" and "malformed" errors, said in the operator's terms. */
function guard<T>(source: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_NOTADB') throw new BackupError(`${source} is not a Lockit backup: it is not an SQLite database.`);
    if (code?.startsWith('SQLITE_CORRUPT')) throw new BackupError(`${source} is damaged: ${(error as Error).message}.`);
    throw error;
  }
}

/**
 * Renames the checked copy over `target` while holding SQLite's exclusive lock on the old
 * file, which also proves no server has it open. The old file is first made self-contained
 * (its WAL merged in) and hard-linked aside; a stale `-wal` or `-shm` must never meet the new
 * file (SQLite would replay the old log into it), so they go before the rename.
 */
async function swapIn(temp: string, target: string): Promise<string | undefined> {
  if (!existsSync(target)) {
    await removeSidecars(target);
    await rename(temp, target);
    await syncFile(path.dirname(target));
    return undefined;
  }
  const current = new SQLite(target, { fileMustExist: true, timeout: 0 });
  try {
    try {
      current.pragma('locking_mode = EXCLUSIVE');
      current.exec('BEGIN EXCLUSIVE');
      current.exec('COMMIT');
      current.pragma('journal_mode = DELETE');
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
        throw new BackupError(
          `${target} is in use (a Lockit server, or another program, has it open): stop every server that uses it, then restore again. Nothing was changed.`,
        );
      }
      // A damaged current database is a reason to restore, not a reason to refuse: it is kept aside as it is.
      if (code !== 'SQLITE_NOTADB' && !code.startsWith('SQLITE_CORRUPT')) throw error;
    }
    const keptAs = await keepAside(target);
    await removeSidecars(target, keptAs);
    await rename(temp, target);
    await syncFile(path.dirname(target));
    return keptAs;
  } finally {
    current.close();
  }
}

/** Hard-links (or copies) the old database to `<target>.before-restore-<time>`, never over an earlier one. */
async function keepAside(target: string): Promise<string> {
  const stem = `${target}.before-restore-${backupStem().slice('lockit-'.length)}`;
  for (let n = 1; ; n += 1) {
    const keptAs = n === 1 ? stem : `${stem}-${n}`;
    if (existsSync(keptAs)) continue;
    await link(target, keptAs).catch(() => copyFile(target, keptAs, constants.COPYFILE_EXCL));
    return keptAs;
  }
}

/**
 * A `-wal` left beside the old file (only when it was too damaged to merge) goes with it; the
 * `-shm` index and the empty `-journal` that exclusive locking mode leaves behind are removed.
 */
async function removeSidecars(target: string, keptAs?: string): Promise<void> {
  if (keptAs && existsSync(`${target}-wal`)) await rename(`${target}-wal`, `${keptAs}-wal`);
  for (const suffix of ['-wal', '-shm', '-journal']) await rm(target + suffix, { force: true });
}

async function syncFile(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
