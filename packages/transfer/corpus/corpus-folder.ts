import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ImportFile } from '../src/import-format';
import type { ExpectedLogin } from '../test/expected-logins';

/**
 * The folder of real export files of other managers named by LOCKIT_IMPORT_CORPUS. The root
 * Vitest config declares the `transfer:corpus` project only when that folder exists.
 */
export const CORPUS_DIR = process.env['LOCKIT_IMPORT_CORPUS'] ?? '';

/** A file of the folder, as the UI would pick it. */
export function corpusFile(name: string): ImportFile {
  return { name, bytes: new Uint8Array(readFileSync(join(CORPUS_DIR, name))) };
}

/** The export files of the folder: every file but its Markdown notes. */
export function corpusFileNames(): string[] {
  return readdirSync(CORPUS_DIR)
    .filter((name) => !name.endsWith('.md'))
    .sort();
}

/**
 * The logins every primary file of the folder yields, as the folder's own notes list them: the
 * lines of a ```jsonl block in one of its Markdown files, one `{name, url, username, password}`
 * per line.
 */
export function corpusExpectedLogins(): ExpectedLogin[] {
  for (const name of readdirSync(CORPUS_DIR).filter((file) => file.endsWith('.md'))) {
    const block = /```jsonl\n([\s\S]*?)```/.exec(readFileSync(join(CORPUS_DIR, name), 'utf8'))?.[1];
    if (block !== undefined)
      return block
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as ExpectedLogin);
  }
  throw new Error(`No Markdown file in ${CORPUS_DIR} lists the expected logins in a jsonl block.`);
}
