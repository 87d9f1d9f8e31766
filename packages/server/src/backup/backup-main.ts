import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, parseDatabaseUrl, parseEnv } from '../config/load-config';
import type { DatabaseConfig } from '../config/app-config';
import { copyServerSecret, restoreServerSecret } from './backup-files';
import { BackupError, describeContents } from './lockit-contents';
import { backupPostgres } from './postgres-backup';
import { restorePostgres } from './postgres-restore';
import { backupSqlite, restoreSqlite } from './sqlite-backup';

const USAGE = `Usage:
  npm run backup [-- --out <dir>]        copy the database (and the server secret) to a timestamped file
  npm run restore -- <file> [--force]    replace the database with a backup (stop the servers first)

The database is the server's: DATABASE_URL, or <DATA_DIR>/lockit.sqlite. Backups go to
<DATA_DIR>/backups unless --out says otherwise. --force (PostgreSQL only) restores although a
server's heartbeat looks fresh, e.g. after a crash; an SQLite file a process holds open is
never replaced.`;

/** Usage mistakes: printed with the usage, exit 2. */
class UsageError extends Error {}

/**
 * `npm run backup` and `npm run restore`: the operator's commands, reading the same
 * environment as the server (DATA_DIR, DATABASE_URL, SERVER_SECRET). Every refusal says what
 * is wrong and leaves the database as it was.
 */
async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    options: { out: { type: 'string' }, force: { type: 'boolean', default: false }, help: { type: 'boolean' } },
    allowPositionals: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const env = parseEnv(process.env);
  const dataDir = path.resolve(process.cwd(), env.DATA_DIR);
  const database = parseDatabaseUrl(env.DATABASE_URL, dataDir, process.cwd());
  const secretFromEnv = env.SERVER_SECRET !== undefined;
  if (command === 'backup') {
    if (positionals.length > 0)
      throw new UsageError(`backup takes no file name (got ${positionals.join(' ')}); use --out <dir>.`);
    const outDir = path.resolve(process.cwd(), values.out ?? path.join(dataDir, 'backups'));
    const { file, contents } = await backup(database, outDir);
    const secret = await copyServerSecret(dataDir, secretFromEnv, file);
    const checked = database.kind === 'sqlite' ? 'integrity ok' : 'archive read back';
    process.stdout.write(`backup ok: ${file} (${await size(file)}, ${checked}): ${describeContents(contents)}; ${secret}\n`);
    return;
  }
  if (command === 'restore') {
    const file = positionals[0];
    if (!file || positionals.length > 1) throw new UsageError('restore takes one file: npm run restore -- <file>');
    const backupFile = path.resolve(process.cwd(), file);
    const lines = await restore(database, backupFile, values.force ?? false);
    lines.push(await restoreServerSecret(backupFile, dataDir, secretFromEnv));
    process.stdout.write(`${lines.join('\n')}\n`);
    return;
  }
  throw new UsageError(command ? `Unknown command: ${command}` : 'No command given.');
}

function backup(database: DatabaseConfig, outDir: string) {
  return database.kind === 'sqlite' ? backupSqlite(database.file, outDir) : backupPostgres(database.url, outDir);
}

async function restore(database: DatabaseConfig, file: string, force: boolean): Promise<string[]> {
  const kind = await backupKind(file);
  if (kind !== undefined && kind !== database.kind) {
    const where = database.kind === 'sqlite' ? 'an SQLite file' : 'PostgreSQL';
    throw new BackupError(
      `${file} is a ${kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'} backup but DATABASE_URL points to ${where}: ` +
        'restore it into the kind of database it was taken from. Nothing was changed.',
    );
  }
  if (database.kind === 'sqlite') {
    const { contents, keptAs } = await restoreSqlite(file, database.file);
    return [
      `restore ok: ${database.file} now holds ${file} (integrity ok): ${describeContents(contents)}`,
      keptAs ? `the database it replaced is kept as ${keptAs}` : 'there was no database before',
    ];
  }
  const { contents, warning } = await restorePostgres(file, database.url, force);
  return [
    ...(warning ? [`warning: ${warning}`] : []),
    `restore ok: DATABASE_URL now holds ${file} (rows checked before commit): ${describeContents(contents)}`,
  ];
}

/** Which database a backup file is for, by its magic bytes; undefined for anything else (checked later). */
async function backupKind(file: string): Promise<DatabaseConfig['kind'] | undefined> {
  const head = await open(file, 'r').then(
    async (handle) => {
      try {
        const { buffer, bytesRead } = await handle.read(Buffer.alloc(16), 0, 16, 0);
        return buffer.subarray(0, bytesRead).toString('latin1');
      } finally {
        await handle.close();
      }
    },
    () => '',
  );
  if (head.startsWith('SQLite format 3')) return 'sqlite';
  if (head.startsWith('PGDMP')) return 'postgres';
  return undefined;
}

async function size(file: string): Promise<string> {
  const bytes = (await stat(file)).size;
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  const known = error instanceof BackupError || error instanceof ConfigError;
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${known ? message : `Unexpected error: ${message}`}\n`);
  process.exit(1);
});
