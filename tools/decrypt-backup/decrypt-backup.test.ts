import { execFile, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { backupSealer, sealBackup, type BackupContents } from '@lockit/transfer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The command as a person runs it, as a child process, with no Lockit server anywhere: the
 * backup is made by @lockit/transfer's sealBackup, the module the web app's export page calls.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const run = promisify(execFile);
const PASSWORD = 'a long backup passphrase';
const KDF = { algorithm: 'argon2id', memoryKiB: 19 * 1024, iterations: 2, parallelism: 1 } as const;

const contents: BackupContents = {
  app: 'lockit',
  version: 1,
  exportedAt: '2024-04-01T08:30:00.000Z',
  includesTrash: false,
  folders: ['Work'],
  items: [
    {
      type: 'login',
      name: 'Mail',
      username: 'alice',
      password: 'p,a"s`s\\ word',
      urls: ['https://mail.example.com'],
      notes: 'two\nlines',
      totp: 'JBSWY3DPEHPK3PXP',
      fields: [{ label: 'PIN', kind: 'hidden', value: '1234' }],
      card: null,
      identity: null,
      tags: ['mail'],
      folder: 'Work',
      favorite: true,
      createdAt: '2024-03-01T10:00:00.000Z',
      updatedAt: '2024-03-02T10:00:00.000Z',
      trashedAt: null,
      history: [],
    },
  ],
};

let dir: string;
let backup: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lockit-decrypt-'));
  backup = join(dir, 'lockit-backup-2024-04-01.json');
  await writeFile(backup, await sealBackup(contents, PASSWORD, { kdf: KDF }));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function command(args: string[], password: string | undefined) {
  const env: NodeJS.ProcessEnv = { ...process.env, LOCKIT_BACKUP_PASSWORD: password };
  if (password === undefined) delete env.LOCKIT_BACKUP_PASSWORD;
  return run('npm', ['run', '--silent', 'decrypt-backup', '--', ...args], { cwd: ROOT, env });
}

async function failure(args: string[], password: string | undefined): Promise<{ code: number; stderr: string; stdout: string }> {
  try {
    await command(args, password);
  } catch (error) {
    const { code, stderr, stdout } = error as { code: number; stderr: string; stdout: string };
    return { code, stderr, stdout };
  }
  throw new Error('The command succeeded.');
}

describe('npm run decrypt-backup', () => {
  it('prints the plaintext of a backup made by the web app’s module, with no server running', async () => {
    const { stdout } = await command([backup], PASSWORD);
    expect(JSON.parse(stdout)).toEqual(contents);
  });

  it('writes the plaintext to --out, readable by its owner only', async () => {
    const out = join(dir, 'plain.json');
    await command([backup, '--out', out], PASSWORD);
    expect(JSON.parse(await readFile(out, 'utf8'))).toEqual(contents);
    expect((await stat(out)).mode & 0o777).toBe(0o600);
  });

  it('says the password is wrong and prints nothing else', async () => {
    const result = await failure([backup], 'not the password');
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr.trim()).toBe('That password does not open this file.');
  });

  it('says a tampered file was changed and prints nothing of it', async () => {
    const envelope = JSON.parse(await readFile(backup, 'utf8')) as { ciphertext: string };
    const bytes = Buffer.from(envelope.ciphertext, 'base64');
    bytes[10]! ^= 0x01;
    const tampered = join(dir, 'tampered.json');
    await writeFile(tampered, JSON.stringify({ ...envelope, ciphertext: bytes.toString('base64') }));
    const result = await failure([tampered], PASSWORD);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toMatch(/^This backup was changed after it was made/);
  });

  it('asks for a password it cannot prompt for without a terminal', async () => {
    const result = await failure([backup], undefined);
    expect(result.stderr.trim()).toBe('No password: run this in a terminal to be asked for it, or set LOCKIT_BACKUP_PASSWORD.');
  });
});

describe('npm run decrypt-backup, a backup with attached files (version 2)', () => {
  const bytesOf = (size: number, seed: number) => new Uint8Array(size).map((_, i) => (i * 31 + seed + (i >> 10)) & 0xff);
  const scan = bytesOf(3 * 1024 * 1024 + 17, 1);
  const notes = bytesOf(10, 2);
  const item = contents.items[0]!;
  const withFiles: BackupContents = {
    ...contents,
    version: 2,
    items: [
      {
        ...item,
        files: [
          { name: 'scan.pdf', size: scan.length, type: 'application/pdf', createdAt: '2024-03-02T10:00:00.000Z' },
          { name: '..notes.txt', size: notes.length, type: 'text/plain', createdAt: '2024-03-03T10:00:00.000Z' },
        ],
      },
    ],
  };
  let pieces: Uint8Array[];
  let filesBackup: string;

  beforeAll(async () => {
    const seal = await backupSealer(PASSWORD, { kdf: KDF });
    pieces = [];
    for await (const piece of seal.withFiles(withFiles, async function* ({ file }) {
      yield file.name === 'scan.pdf' ? scan : notes;
    }))
      pieces.push(piece);
    filesBackup = join(dir, 'lockit-backup-2024-04-01.lockit');
    await writeFile(filesBackup, Buffer.concat(pieces));
  });

  it('writes the JSON and every file, byte for byte, under --out DIR, readable by its owner only', async () => {
    const out = join(dir, 'restored');
    const { stderr } = await command([filesBackup, '--out', out], PASSWORD);
    expect(JSON.parse(await readFile(join(out, 'backup.json'), 'utf8'))).toEqual(withFiles);
    const folder = join(out, 'files', '001 Mail');
    expect((await readdir(folder)).sort()).toEqual(['notes.txt', 'scan.pdf']);
    expect((await readFile(join(folder, 'scan.pdf'))).equals(Buffer.from(scan))).toBe(true);
    expect((await readFile(join(folder, 'notes.txt'))).equals(Buffer.from(notes))).toBe(true);
    expect((await stat(join(folder, 'scan.pdf'))).mode & 0o777).toBe(0o600);
    expect(stderr).toMatch(/Wrote 1 item\(s\) to .* and 2 attached file\(s\)/);
  });

  it('without --out, prints the JSON and lists the files it checked', async () => {
    const { stdout, stderr } = await command([filesBackup], PASSWORD);
    expect(JSON.parse(stdout)).toEqual(withFiles);
    expect(stderr).toContain('2 attached file(s) in the backup, each checked');
    expect(stderr).toContain(`Mail: scan.pdf (${scan.length} bytes)`);
  });

  it('stops at a file that fails its check, names it, and leaves no part of it on disk', async () => {
    const tampered = join(dir, 'tampered.lockit');
    const whole = Buffer.concat(pieces);
    whole[whole.length - 3]! ^= 1; // inside ..notes.txt, the last file
    await writeFile(tampered, whole);
    const out = join(dir, 'tampered-out');
    const result = await failure([tampered, '--out', out], PASSWORD);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/The file "\.\.notes\.txt" of "Mail" in this backup failed its check/);
    const folder = join(out, 'files', '001 Mail');
    expect(await readdir(folder)).toEqual(['scan.pdf']);
  });

  // The independent Python reader printed in docs/backup-format.md, where Python and its
  // cryptography package are installed: the documentation alone opens the file.
  const python = spawnSync('python3', ['-c', 'import cryptography.hazmat.primitives.kdf.argon2']).status === 0;
  it.skipIf(!python)('is opened by the Python reader of docs/backup-format.md, files byte for byte', async () => {
    const doc = await readFile(join(ROOT, 'docs/backup-format.md'), 'utf8');
    const program = /```python\n([\s\S]*?)```/.exec(doc)![1]!;
    const script = join(dir, 'decrypt.py');
    await writeFile(script, program);
    const out = join(dir, 'python-out');
    const { stdout } = await run('python3', [script, filesBackup, PASSWORD, out]);
    expect(JSON.parse(stdout)).toEqual(withFiles);
    expect((await readFile(join(out, '0-0-scan.pdf'))).equals(Buffer.from(scan))).toBe(true);
    expect((await readFile(join(out, '0-1-notes.txt'))).equals(Buffer.from(notes))).toBe(true);
    const cut = join(dir, 'cut.lockit');
    await writeFile(cut, Buffer.concat(pieces).subarray(0, -1));
    await expect(run('python3', [script, cut, PASSWORD])).rejects.toThrow(/cut short/);
  });

  it('refuses a wrong password and a directory that is not empty', async () => {
    expect((await failure([filesBackup], 'not the password')).stderr.trim()).toBe('That password does not open this file.');
    const busy = join(dir, 'busy');
    await mkdir(busy);
    await writeFile(join(busy, 'something'), 'x');
    expect((await failure([filesBackup, '--out', busy], PASSWORD)).stderr).toMatch(/is not empty/);
  });
});
