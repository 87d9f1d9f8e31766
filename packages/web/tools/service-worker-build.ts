import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Plugin } from 'vite';

const SOURCE = fileURLToPath(new URL('../service-worker/service-worker.ts', import.meta.url));

/** What the worker precaches: the bundle's files and the public ones, never HTML (see the worker). */
const SKIP = /\.(?:html|br|gz|map)$|^robots\.txt$/;

/** A file under assets/ carries its content hash in its name; others get one as revision. */
const HASHED = /^assets\//;

/**
 * Writes dist/sw.js: the service worker (service-worker/service-worker.ts) bundled with
 * Workbox into one classic script (Firefox runs no module service worker), with the list of
 * files to precache written in. Workbox's own build tool would do the same through Babel,
 * Rollup and Terser; the list is one line of the bundle this plugin already sees, and esbuild
 * is Vite's own dependency.
 */
export function serviceWorkerBuild(): Plugin {
  let outDir = '';
  let publicDir = '';
  return {
    name: 'lockit:service-worker',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.ssr ? '' : config.build.outDir;
      publicDir = config.publicDir;
    },
    async writeBundle(_options, bundle) {
      if (outDir === '') return;
      const built = Object.keys(bundle).filter((file) => !SKIP.test(file));
      const published =
        publicDir === ''
          ? []
          : (await readdir(publicDir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
      const publicFiles = published
        .map((entry) => join(entry.parentPath, entry.name).slice(publicDir.length + 1))
        .filter((file) => !SKIP.test(file));
      const precache = await Promise.all(
        [...built, ...publicFiles].sort().map(async (file) => ({
          url: `/${file}`,
          revision: HASHED.test(file) ? null : await revisionOf(join(outDir, file)),
        })),
      );
      await build({
        entryPoints: [SOURCE],
        outfile: join(outDir, 'sw.js'),
        bundle: true,
        format: 'iife',
        platform: 'browser',
        target: 'es2022',
        minify: true,
        legalComments: 'none',
        logLevel: 'warning',
        define: { LOCKIT_PRECACHE: JSON.stringify(precache), 'process.env.NODE_ENV': '"production"' },
      });
    },
  };
}

async function revisionOf(file: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(file))
    .digest('hex')
    .slice(0, 16);
}
