import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { BackupError } from './lockit-contents';

const run = promisify(execFile);
const DEBIAN_BIN_ROOT = '/usr/lib/postgresql';

/**
 * pg_dump, pg_restore or psql: the one on PATH, else the newest in /usr/lib/postgresql/<major>/bin
 * (Debian keeps them there, off PATH, when several versions are installed).
 */
export function findPostgresTool(tool: 'pg_dump' | 'pg_restore' | 'psql', env: NodeJS.ProcessEnv = process.env): string {
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    if (existsSync(path.join(dir, tool))) return path.join(dir, tool);
  }
  const majors = existsSync(DEBIAN_BIN_ROOT)
    ? readdirSync(DEBIAN_BIN_ROOT)
        .filter((name) => /^\d+$/.test(name) && existsSync(path.join(DEBIAN_BIN_ROOT, name, 'bin', tool)))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors[0]) return path.join(DEBIAN_BIN_ROOT, majors[0], 'bin', tool);
  throw new BackupError(
    `${tool} was not found (looked on PATH and in ${DEBIAN_BIN_ROOT}/*/bin). Install the PostgreSQL client ` +
      `of the server's major version or newer (Debian/Ubuntu: apt install postgresql-client-<major>).`,
  );
}

/** The major version a tool reports (`pg_dump (PostgreSQL) 15.20 (Debian …)` → 15). */
export async function toolMajorVersion(tool: string): Promise<number> {
  const { stdout } = await run(tool, ['--version']);
  const match = /\(PostgreSQL\)\s+(\d+)/.exec(stdout);
  if (!match) throw new BackupError(`Could not read the version of ${tool}: "${stdout.trim()}".`);
  return Number(match[1]);
}

/** Refuses a client older than the server: pg_dump cannot dump a newer server, pg_restore may not read its dumps. */
export async function checkToolVersion(tool: string, serverVersionNum: number): Promise<void> {
  const serverMajor = Math.floor(serverVersionNum / 10_000);
  const toolMajor = await toolMajorVersion(tool);
  if (toolMajor < serverMajor) {
    throw new BackupError(
      `${tool} is version ${toolMajor} but the PostgreSQL server is ${serverMajor}: install the ${serverMajor} ` +
        `client (or newer) and run again, or put it first on PATH.`,
    );
  }
}

/** Runs a tool; on failure its own message (stderr) is the error, after `what`. */
export async function runTool(tool: string, args: string[], what: string): Promise<string> {
  try {
    const { stdout } = await run(tool, args, { maxBuffer: 256 * 1024 * 1024, env: { ...process.env, PGCONNECT_TIMEOUT: '10' } });
    return stdout;
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new BackupError(`${what}: ${stderr || (error as Error).message}`);
  }
}
