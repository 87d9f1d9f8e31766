import { execFile } from 'node:child_process';
import { chmodSync, closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import {
  createVerifiedAccount,
  LogCodeInbox,
  startServerProcess,
  type ServerProcess,
  type VerifiedAccount,
} from '@lockit/test-support';
import { DISK_FULL } from '../../src/db/database-faults';
import { encryptEntry } from '../helpers/entries';
import { recordFigures } from '../helpers/figures';

/**
 * The SQLite data directory unusable at start (read-only, not a folder) and the disk filling
 * up while serving, against the real server process: start says which path and what is
 * wrong; a write on a full disk answers 507 with a message, the log says so once and never
 * "cannot rollback", and writes work again once space is freed.
 */
const run = promisify(execFile);
const SECRET = 'data-directory-test-secret-0123456789abcdef';
const cleanups: Array<() => Promise<void> | void> = [];

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'lockit-data-dir-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A tmpfs mounted on a temp dir (root only); undefined where mounting is not permitted. */
async function mountTmpfs(options: string): Promise<string | undefined> {
  if (userInfo().uid !== 0) return undefined;
  const dir = tempDir();
  try {
    await run('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir]);
  } catch {
    return undefined;
  }
  cleanups.unshift(() => run('umount', ['-l', dir]).then(() => undefined));
  return dir;
}

/** A folder the server cannot write: a read-only mount under root (root ignores modes), mode 0500 otherwise. */
async function readOnlyDir(): Promise<string | undefined> {
  if (userInfo().uid === 0) return mountTmpfs('size=1m,ro');
  const dir = tempDir();
  chmodSync(dir, 0o500);
  cleanups.unshift(() => chmodSync(dir, 0o700));
  return dir;
}

/** Starts the server and returns what it printed when it refused to start. */
async function startFailure(dataDir: string): Promise<string> {
  const error = await startServerProcess({ env: { DATA_DIR: dataDir, SERVER_SECRET: SECRET } }).then(
    async (server) => {
      await server.stop();
      throw new Error(`the server started on ${dataDir}`);
    },
    (failure: unknown) => String(failure),
  );
  return error;
}

/** Writes `file` until the disk is full. */
function fillUp(file: string): void {
  const fd = openSync(file, 'w');
  try {
    const chunk = Buffer.alloc(64 * 1024, 1);
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
  } finally {
    closeSync(fd);
  }
}

afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

describe('an unusable data directory at start', () => {
  it('read-only: says which folder is not writable, not "unable to open database file"', async () => {
    const dir = await readOnlyDir();
    if (!dir) return expect.fail('no read-only folder could be made (mount refused)');
    const printed = await startFailure(dir);
    expect(printed).toContain(`The data directory ${dir} is not writable`);
    expect(printed).toContain('set DATA_DIR');
    expect(printed).not.toContain('unable to open database file');
  });

  it.runIf(userInfo().uid === 0)('on a full disk: says the disk of the data directory is full', async () => {
    const dir = await mountTmpfs('size=1m');
    if (!dir) return expect.fail('tmpfs could not be mounted');
    fillUp(path.join(dir, 'filler'));
    const printed = await startFailure(dir);
    expect(printed).toContain(`The disk of the data directory ${dir} is full`);
  });

  it('a file where the folder should be: says it is not a directory', async () => {
    const file = path.join(tempDir(), 'not-a-folder');
    writeFileSync(file, 'x');
    const printed = await startFailure(file);
    expect(printed).toContain(`The data directory ${file} is not a directory`);
  });
});

describe('the disk filling up while serving', () => {
  let dataDir: string | undefined;
  let server: ServerProcess;
  let owner: VerifiedAccount;
  beforeAll(async () => {
    dataDir = await mountTmpfs('size=3m');
    if (!dataDir) return;
    const inbox = new LogCodeInbox();
    server = await startServerProcess({
      logLevel: 'info',
      onLine: inbox.onLine,
      env: { DATA_DIR: dataDir, SERVER_SECRET: SECRET, WEB_DIST_DIR: path.join(tempDir(), 'no-web') },
    });
    owner = await createVerifiedAccount(server.url, inbox);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it.runIf(userInfo().uid === 0)(
    'writes answer 507 with a message, logged once, and work again once space is freed',
    async () => {
      if (!dataDir) return expect.fail('tmpfs could not be mounted');
      const filler = path.join(dataDir, 'filler');
      fillUp(filler);
      const statuses = new Map<number, number>();
      const write = async () => {
        const entry = await encryptEntry(owner.account, {
          serviceName: 'Disk',
          username: 'full',
          password: 'p',
          notes: 'n'.repeat(10_000),
        });
        const answer = await owner.client.post(apiPaths.addEntry, entry);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        return answer;
      };
      let refused;
      for (let n = 0; n < 300 && !refused; n += 1) {
        const answer = await write();
        if (answer.status !== 201) refused = answer;
      }
      for (let n = 0; n < 20; n += 1) await write();
      expect(refused?.status).toBe(507);
      expect(refused?.body.message).toBe(DISK_FULL);
      // Every write either stored (the WAL still had room) or refused with 507: never a 500.
      expect([...statuses.keys()].filter((status) => status !== 201 && status !== 507)).toEqual([]);
      // Reads still work on a full disk.
      expect((await owner.client.get(apiPaths.listEntries)).status).toBe(200);

      rmSync(filler);
      expect((await write()).status).toBe(201);
      const output = server.output();
      const lines = (text: string) => output.split('\n').filter((line) => line.includes(text)).length;
      const figures = {
        answers201: statuses.get(201) ?? 0,
        answers507: statuses.get(507) ?? 0,
        diskFullLogLines: lines('database disk full'),
        cannotRollbackLines: lines('cannot rollback'),
        unexpectedErrorLines: lines('unexpected error'),
      };
      recordFigures('disk full (tmpfs)', figures);
      expect(figures.diskFullLogLines).toBe(1);
      expect(figures.cannotRollbackLines).toBe(0);
      expect(figures.unexpectedErrorLines).toBe(0);
      expect(server.child.exitCode).toBeNull();
    },
    60_000,
  );
});
