import { accessSync, constants, statfsSync, statSync } from 'node:fs';
import path from 'node:path';

const ADVICE =
  'Lockit keeps its SQLite database there: make it writable by the user running Lockit, or set DATA_DIR (or DATABASE_URL) to another place.';

/**
 * Why the SQLite file could not be opened, in words an operator can act on. SQLite itself
 * only says "unable to open database file"; this looks at the folder: missing, not a folder,
 * not writable (permissions or a read-only mount), or on a full disk.
 */
export function describeSqliteOpenFailure(file: string, error: unknown): string {
  const dir = path.dirname(file);
  const reason = errorText(error);
  let stats;
  try {
    stats = statSync(dir);
  } catch (statError) {
    return `The data directory ${dir} does not exist and could not be created (${errorText(statError)}). ${ADVICE}`;
  }
  if (!stats.isDirectory()) return `The data directory ${dir} is not a directory. ${ADVICE}`;
  try {
    accessSync(dir, constants.W_OK);
  } catch (accessError) {
    return `The data directory ${dir} is not writable (${errorText(accessError)}). ${ADVICE}`;
  }
  if (isDiskFull(dir)) return `The disk of the data directory ${dir} is full: free some space and start again.`;
  return `The database file ${file} could not be opened (${reason}). ${ADVICE}`;
}

function isDiskFull(dir: string): boolean {
  try {
    const stats = statfsSync(dir);
    return stats.bavail === 0;
  } catch {
    return false;
  }
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  // Node's fs messages start with the code ("EROFS: read-only file system, access '/x'").
  return code && !error.message.startsWith(code) ? `${code}: ${error.message}` : error.message;
}
