import { readdirSync, statSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const SOURCES = ['src/client/', 'src/shared/'];

/**
 * The thin client's `main`: from dist/lockit.mjs (`npm run build`, one file that starts sooner)
 * when that bundle is newer than every file of the client's sources, else from the sources
 * themselves, so a clone without a build and an edit since the last build both run what is in
 * src. The check is a stat of about thirty files (well under a millisecond).
 *
 * @returns {Promise<(argv: string[]) => Promise<number>>}
 */
export async function loadClient() {
  // A computed specifier: the bundle is not there before a build, and type checks must not need it.
  const bundle = '../dist/lockit.mjs';
  return (bundleIsCurrent(root) ? await import(bundle) : await import('../src/client/main.js')).main;
}

/**
 * Whether `dist/lockit.mjs` under the package folder `root` is newer than every source file.
 *
 * @param {URL} root
 */
export function bundleIsCurrent(root) {
  try {
    const built = statSync(new URL('dist/lockit.mjs', root)).mtimeMs;
    return SOURCES.every((folder) =>
      readdirSync(new URL(folder, root)).every((name) => statSync(new URL(folder + name, root)).mtimeMs <= built),
    );
  } catch {
    return false;
  }
}
