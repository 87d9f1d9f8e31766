import { constants } from 'node:fs';
import { chmod, copyFile, mkdir, open, readFile } from 'node:fs/promises';
import path from 'node:path';

/** `lockit-20261124-131500` (UTC): sorts by time, no characters a shell or Windows minds. */
export function backupStem(now = new Date()): string {
  const iso = now.toISOString(); // 2026-11-24T13:15:00.000Z
  return `lockit-${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}`;
}

/**
 * Creates `<dir>/<stem><extension>` empty with mode 0600 (the folder 0700 when made here), so
 * the copy is never readable by others, not even while it is being written. Two backups in the
 * same second get `-2`, `-3`... rather than overwriting each other.
 */
export async function reserveBackupFile(dir: string, extension: string, now = new Date()): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const stem = backupStem(now);
  for (let n = 1; ; n += 1) {
    const file = path.join(dir, `${stem}${n === 1 ? '' : `-${n}`}${extension}`);
    try {
      const handle = await open(file, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600);
      await handle.close();
      await chmod(file, 0o600); // the umask may have narrowed it, never widened: set it exactly
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** `lockit-….sqlite` → `lockit-….server-secret`, the server secret kept beside its backup. */
export function secretFileFor(backupFile: string): string {
  return backupFile.replace(/\.(sqlite|dump)$/, '') + '.server-secret';
}

/**
 * The server secret belongs in every backup (docs/operations.md, "What to back up"). When it
 * lives in DATA_DIR it is copied beside the database copy (mode 0600); when it comes from
 * SERVER_SECRET the summary says it must be kept with the backup, since only the operator has it.
 */
export async function copyServerSecret(dataDir: string, secretFromEnv: boolean, backupFile: string): Promise<string> {
  if (secretFromEnv) return 'server secret: SERVER_SECRET is set in the environment: keep it with this backup';
  const source = path.join(dataDir, 'server-secret');
  const target = secretFileFor(backupFile);
  try {
    await copyFile(source, target, constants.COPYFILE_EXCL);
    await chmod(target, 0o600);
    return `server secret: ${target}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return `server secret: none in ${dataDir} (the server makes one at its first start): nothing to copy`;
    }
    throw error;
  }
}

/**
 * After a restore: puts a secret kept beside the backup into DATA_DIR when none is there; one
 * that is there and differs is left alone and reported (it may be newer than the backup).
 */
export async function restoreServerSecret(backupFile: string, dataDir: string, secretFromEnv: boolean): Promise<string> {
  if (secretFromEnv) return 'server secret: from SERVER_SECRET (unchanged)';
  const kept = await readFile(secretFileFor(backupFile), 'utf8').catch(() => undefined);
  if (kept === undefined) return 'server secret: none beside the backup; the one in DATA_DIR (if any) is kept';
  const target = path.join(dataDir, 'server-secret');
  const current = await readFile(target, 'utf8').catch(() => undefined);
  if (current === kept) return 'server secret: unchanged (the same as the backup)';
  if (current !== undefined) {
    return `server secret: ${target} differs from the one beside the backup and was kept; replace it by hand if needed`;
  }
  await mkdir(dataDir, { recursive: true });
  await copyFile(secretFileFor(backupFile), target, constants.COPYFILE_EXCL);
  await chmod(target, 0o600);
  return `server secret: restored to ${target}`;
}
