import { rm } from 'node:fs/promises';
import { reserveBackupFile } from './backup-files';
import { BackupError, type LockitContents } from './lockit-contents';
import { readArchive } from './postgres-archive';
import { connect, readContents, serverInfo } from './postgres-connection';
import { checkToolVersion, findPostgresTool, runTool } from './postgres-tools';

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
