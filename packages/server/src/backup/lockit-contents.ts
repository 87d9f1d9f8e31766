import { migrations } from '../db/migrations/index';

/** A problem the operator can act on; the CLI prints the message and exits 1, having changed nothing. */
export class BackupError extends Error {
  override name = 'BackupError';
}

/** What a backup or a restored database holds, as far as an operator checks it. */
export interface LockitContents {
  /** Names from kysely_migration, in order: which Lockit version the data belongs to. */
  migrations: string[];
  counts: { users: number; entries: number; folders: number };
}

/** The tables whose rows are counted in every summary. */
export const COUNTED_TABLES = ['users', 'entries', 'folders'] as const;

/**
 * Refuses data this code cannot serve: without kysely_migration it is not a Lockit database,
 * and a migration this code does not know means a newer Lockit wrote it (restoring it here
 * would let an older server run on a schema it does not understand).
 */
export function checkMigrations(source: string, names: string[] | undefined): void {
  if (names === undefined || names.length === 0) {
    throw new BackupError(`${source} is not a Lockit backup: it has no kysely_migration table (or an empty one).`);
  }
  const unknown = names.filter((name) => !(name in migrations));
  if (unknown.length > 0) {
    throw new BackupError(
      `${source} was written by a newer Lockit (migrations this version does not know: ${unknown.join(', ')}). ` +
        'Restore it with that version or a later one.',
    );
  }
}

/** One line: `3 users, 120 entries, 4 folders; migrations 0001-initial … 0005-import-batches (5)`. */
export function describeContents(contents: LockitContents): string {
  const { users, entries, folders } = contents.counts;
  const first = contents.migrations[0] ?? '';
  const last = contents.migrations.at(-1) ?? '';
  const range = contents.migrations.length > 1 ? `${first} … ${last}` : first;
  return `${users} users, ${entries} entries, ${folders} folders; migrations ${range} (${contents.migrations.length})`;
}

/**
 * Statements run on restored data before it goes live: the heartbeats and job leases in a
 * backup belong to processes of the moment it was taken. Left in place, a fresh-looking
 * heartbeat would make a restore refuse, or a new server think it is not alone, and a held
 * lease would keep a job from running until it expired. No server runs during a restore.
 */
export function forgetProcessesSql(tables: ReadonlySet<string>, qualify: (table: string) => string): string[] {
  return [
    ...(tables.has('server_processes') ? [`delete from ${qualify('server_processes')}`] : []),
    ...(tables.has('job_leases') ? [`update ${qualify('job_leases')} set holder = null, lease_until = 0`] : []),
  ];
}
