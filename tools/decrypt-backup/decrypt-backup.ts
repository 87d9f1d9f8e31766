/**
 * The offline decrypter of Lockit's encrypted backup (docs/backup-format.md):
 *
 *   npm run -s decrypt-backup -- <backup.json> [--out plain.json]
 *
 * Reads the password from LOCKIT_BACKUP_PASSWORD, or asks for it on the terminal without
 * echo. Prints the plaintext JSON (or writes it to --out, readable by the owner only). It
 * opens the file with the very module the web app seals it with (@lockit/transfer), and
 * needs no server and no network: it reads one file and writes one.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ReadStream } from 'node:tty';
import { parseArgs } from 'node:util';
import { ImportFileError, ImportPasswordError, openBackup } from '@lockit/transfer';
import { readPasswordFromTerminal } from './read-password';

const USAGE = 'Usage: npm run -s decrypt-backup -- <backup.json> [--out plain.json]';

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

async function main(argv: string[]): Promise<void> {
  const { file, out } = readArguments(argv);
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

main(process.argv.slice(2)).catch((error: unknown) => {
  const known = error instanceof CommandError || error instanceof ImportFileError || error instanceof ImportPasswordError;
  process.stderr.write(`${known ? (error as Error).message : String(error)}\n`);
  process.exitCode = error instanceof CommandError ? error.exitCode : 1;
});
