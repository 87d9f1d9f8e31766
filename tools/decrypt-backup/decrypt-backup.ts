/**
 * The offline decrypter of Lockit's encrypted backup (docs/backup-format.md):
 *
 *   npm run -s decrypt-backup -- <backup file> [--out plain.json | --out DIR]
 *
 * Reads the password from LOCKIT_BACKUP_PASSWORD, or asks for it on the terminal without
 * echo. Prints the plaintext JSON (or writes it to --out, readable by the owner only). A
 * version 2 backup (one with attached files) is read as a stream: without --out its files are
 * checked and listed; with --out DIR the JSON and every file are written under DIR. It opens
 * the file with the very module the web app seals it with (@lockit/transfer), and needs no
 * server and no network.
 */
import { createReadStream } from 'node:fs';
import { open, readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ReadStream } from 'node:tty';
import { parseArgs } from 'node:util';
import { ImportFileError, ImportPasswordError, openBackup, openBackupStream, streamHeaderLine } from '@lockit/transfer';
import { readPasswordFromTerminal } from './read-password';
import { writeBackupFiles } from './write-files';

const USAGE = 'Usage: npm run -s decrypt-backup -- <backup file> [--out plain.json | --out DIR (a backup with files)]';

/** Thrown for what the person must fix: the message is printed alone, without a stack. */
class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

function readArguments(argv: string[]): { file: string; out: string | undefined } {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { out: { type: 'string', short: 'o' } } });
  } catch (error) {
    throw new CommandError(`${(error as Error).message}\n${USAGE}`, 2);
  }
  if (parsed.positionals.length !== 1) throw new CommandError(USAGE, 2);
  // npm runs scripts from the repository root; paths are the caller's, from where they typed them.
  const base = process.env.INIT_CWD ?? process.cwd();
  return { file: resolve(base, parsed.positionals[0]!), out: parsed.values.out && resolve(base, parsed.values.out) };
}

async function readPassword(): Promise<string> {
  const fromEnvironment = process.env.LOCKIT_BACKUP_PASSWORD;
  if (fromEnvironment !== undefined && fromEnvironment !== '') return fromEnvironment;
  if (!(process.stdin instanceof ReadStream) || !process.stdin.isTTY) {
    throw new CommandError('No password: run this in a terminal to be asked for it, or set LOCKIT_BACKUP_PASSWORD.');
  }
  return readPasswordFromTerminal('Backup password: ', process.stdin, process.stderr);
}

/** Whether the file starts with a version 2 header line (a version 1 file is one JSON object). */
async function isStream(file: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    throw new CommandError(`Cannot read ${file}.`);
  }
  try {
    const head = new Uint8Array(4096);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return streamHeaderLine(head.subarray(0, bytesRead)) !== null;
  } finally {
    await handle.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const { file, out } = readArguments(argv);
  if (await isStream(file)) return mainStream(file, out);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new CommandError(`Cannot read ${file}.`);
  }
  const password = await readPassword();
  const contents = await openBackup(text.replace(/^\uFEFF/, ''), password);
  const json = `${JSON.stringify(contents, null, 2)}\n`;
  if (out === undefined) {
    process.stdout.write(json);
    return;
  }
  await writeFile(out, json, { mode: 0o600 });
  process.stderr.write(`Wrote ${contents.items.length} item(s) to ${out}. It holds every password in the clear.\n`);
}

/** A version 2 backup, read as it streams from disk: no file is held whole in memory. */
async function mainStream(file: string, out: string | undefined): Promise<void> {
  const password = await readPassword();
  const opened = await openBackupStream(createReadStream(file), password);
  if (out === undefined) process.stdout.write(`${JSON.stringify(opened.contents, null, 2)}\n`);
  const files = await writeBackupFiles(opened, out).catch((error: unknown) => {
    if (error instanceof ImportFileError) throw error;
    throw new CommandError((error as Error).message);
  });
  const lines = files.map((f) => `  ${f.item}: ${f.name} (${f.size} bytes)${f.path === null ? '' : ` -> ${f.path}`}`);
  const summary =
    out === undefined
      ? `${files.length} attached file(s) in the backup, each checked; give --out DIR to write them:`
      : `Wrote ${opened.contents.items.length} item(s) to ${out}/backup.json and ${files.length} attached file(s) under ${out}/files. They hold every password and file in the clear.`;
  process.stderr.write(`${[summary, ...(out === undefined ? lines : [])].join('\n')}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const known = error instanceof CommandError || error instanceof ImportFileError || error instanceof ImportPasswordError;
  process.stderr.write(`${known ? (error as Error).message : String(error)}\n`);
  process.exitCode = error instanceof CommandError ? error.exitCode : 1;
});
