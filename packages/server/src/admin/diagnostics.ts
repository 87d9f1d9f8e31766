import { readFileSync, statSync } from 'node:fs';
import { formatBytes } from '@lockit/contract';
import { sql } from 'kysely';
import type { AppConfig } from '../config/app-config';
import { SERVER_PACKAGE_JSON } from '../config/package-paths';
import type { Db } from '../db/schema';
import type { Repositories } from '../db/repositories/index';
import { migrations } from '../db/migrations/index';
import { listJobRuns, type JobRun } from '../jobs/job-leases';

export interface DiagnosticsDeps {
  config: AppConfig;
  db: Db;
  repos: Repositories;
  /** `not configured`, `ready`, `unreachable`...; never the URL (it may hold a password). */
  redisStatus: () => Promise<string> | string;
  /** Seconds this server process has run; undefined from lockit-admin. */
  uptimeSeconds?: number;
}

export interface Diagnostics {
  lockitVersion: string;
  node: string;
  platform: string;
  database: { kind: 'SQLite' | 'PostgreSQL'; version: string; bytes: number | null };
  migrations: { applied: string[]; known: string[] };
  mail: string;
  redis: string;
  users: { users: number; unverified: number; disabled: number };
  /** Each cleanup job's last run (jobs/), as every process shares them in the database. */
  jobs: JobRun[];
  /** When the diagnostics were taken, to say how long ago each job ran. */
  takenAt: number;
  uptimeSeconds: number | undefined;
}

/**
 * What an operator pastes into a bug report. Holds no secret by construction: no URL (only
 * the mail host and port), no token, no name or e-mail, nothing of a vault; counts only.
 */
export async function collectDiagnostics(deps: DiagnosticsDeps): Promise<Diagnostics> {
  const { version } = JSON.parse(readFileSync(SERVER_PACKAGE_JSON, 'utf8')) as { version: string };
  const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(deps.db);
  return {
    lockitVersion: version,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    database: await describeDatabase(deps.config, deps.db),
    migrations: { applied: applied.rows.map((row) => row.name), known: Object.keys(migrations).sort() },
    mail: describeMail(deps.config.smtpUrl),
    redis: await deps.redisStatus(),
    users: await deps.repos.userAdmin.totals(),
    jobs: await listJobRuns(deps.db),
    takenAt: Date.now(),
    uptimeSeconds: deps.uptimeSeconds,
  };
}

export function formatDiagnostics(d: Diagnostics): string {
  const pending = d.migrations.known.filter((name) => !d.migrations.applied.includes(name));
  const unknown = d.migrations.applied.filter((name) => !d.migrations.known.includes(name));
  const latest = d.migrations.applied.at(-1) ?? 'none';
  const migrationLine =
    `${d.migrations.applied.length} applied of ${d.migrations.known.length} known (latest ${latest})` +
    (pending.length > 0 ? `; pending: ${pending.join(', ')}` : '') +
    (unknown.length > 0 ? `; applied but unknown to this version: ${unknown.join(', ')}` : '');
  return [
    'Lockit diagnostics',
    `Lockit version: ${d.lockitVersion}`,
    `Node.js: ${d.node} (${d.platform})`,
    `Database: ${d.database.kind} ${d.database.version}, ${d.database.bytes === null ? 'size unknown' : formatBytes(d.database.bytes)}`,
    `Migrations: ${migrationLine}`,
    `Mail: ${d.mail}`,
    `Redis: ${d.redis}`,
    `Accounts: ${d.users.users} (${d.users.unverified} unverified, ${d.users.disabled} disabled)`,
    `Jobs: ${d.jobs.length === 0 ? 'none has run yet' : d.jobs.map((job) => describeJob(job, d.takenAt)).join('; ')}`,
    `Uptime: ${d.uptimeSeconds === undefined ? 'n/a (lockit-admin, not the server)' : formatDuration(d.uptimeSeconds)}`,
  ].join('\n');
}

/** `trash-purge ok 3m 2s ago (0 deleted)`: enough to see a job that fails or stopped running. */
function describeJob(job: JobRun, at: number): string {
  if (job.last_run_at === null) return `${job.name} never ran`;
  const ago = formatDuration(Math.max(0, (at - job.last_run_at) / 1000));
  const outcome = job.running ? 'running' : (job.last_outcome ?? 'unknown');
  const deleted = job.last_deleted === null ? '' : ` (${job.last_deleted} deleted)`;
  return `${job.name} ${outcome} ${ago} ago${deleted}`;
}

async function describeDatabase(config: AppConfig, db: Db): Promise<Diagnostics['database']> {
  if (config.database.kind === 'sqlite') {
    const version = await sql<{ v: string }>`select sqlite_version() as v`.execute(db);
    const file = config.database.file;
    // The main file, its write-ahead log and the WAL index: what the database takes on disk.
    const bytes = [file, `${file}-wal`, `${file}-shm`].reduce((sum, path) => sum + fileSize(path), 0);
    return { kind: 'SQLite', version: version.rows[0]?.v ?? '?', bytes };
  }
  const row = await sql<{ v: string; size: string | number }>`
    select current_setting('server_version') as v, pg_database_size(current_database()) as size`.execute(db);
  const size = row.rows[0]?.size;
  return { kind: 'PostgreSQL', version: row.rows[0]?.v ?? '?', bytes: size === undefined ? null : Number(size) };
}

/** The transport and where it goes, never the user or password of SMTP_URL. */
function describeMail(smtpUrl: string | undefined): string {
  if (!smtpUrl) return 'log (SMTP_URL unset: codes and links are written to the server log)';
  try {
    const url = new URL(smtpUrl);
    const port = url.port || (url.protocol === 'smtps:' ? '465' : '587');
    return `SMTP (${url.protocol.replace(':', '')}, ${url.hostname}:${port}${url.username ? ', with credentials' : ''})`;
  } catch {
    return 'SMTP (SMTP_URL set)';
  }
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function formatDuration(seconds: number): string {
  const whole = Math.floor(seconds);
  const days = Math.floor(whole / 86_400);
  const hours = Math.floor((whole % 86_400) / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const parts = [days > 0 ? `${days}d` : '', hours > 0 || days > 0 ? `${hours}h` : '', `${minutes}m`, `${whole % 60}s`];
  return parts.filter(Boolean).join(' ');
}
