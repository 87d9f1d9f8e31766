import { readFileSync } from 'node:fs';
import type { ImportFile } from '../src/import-format';

/** A file of this package's own fixtures (test/fixtures). */
export function ownFixture(name: string): ImportFile {
  return { name, bytes: new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url))) };
}

/** A file made from text (UTF-8), for inline cases. */
export function textFile(text: string, name = 'export.csv'): ImportFile {
  return { name, bytes: new TextEncoder().encode(text) };
}
