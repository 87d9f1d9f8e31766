import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { repoRoot } from './repo-paths';

/**
 * Where the one-file build of the server goes: two folders below packages/server, the depth of
 * packages/server/src/config/package-paths.ts, so the paths it finds from its own place (the
 * package's version, the web app's build) are the same as from the sources.
 */
export const SERVER_BUILD_FILE = join(repoRoot, 'packages/server/.test-build/server/main.mjs');

/** Set by the test suites' global setup once the build is fresh; startServerProcess then uses it. */
export const SERVER_BUILD_ENV = 'LOCKIT_SERVER_BUILD';

/**
 * Bundles packages/server/src/main.ts and the workspace packages it imports into one ES module,
 * leaving npm dependencies (native modules included) to Node. Why: `node --import tsx` compiles
 * some 400 TypeScript files at every start, which is most of a server's start-up on this
 * 2-core machine, and the end-to-end and client suites start a server per file. esbuild is
 * tsx's own compiler, so the code that runs is the same; the tests that are about how
 * `npm run serve` starts (the server suite's process tests) still start it through tsx.
 */
export async function buildServerForTests(): Promise<string> {
  // Built beside and renamed over: several suites of one run build at once, and a server must
  // never start from a half-written file.
  const partial = `${SERVER_BUILD_FILE}.${process.pid}.${Math.random().toString(36).slice(2)}.partial`;
  await build({
    entryPoints: [join(repoRoot, 'packages/server/src/main.ts')],
    outfile: partial,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'warning',
    plugins: [
      {
        name: 'npm-dependencies-stay-external',
        setup(plugin) {
          plugin.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@lockit/') ? undefined : { external: true }));
        },
      },
    ],
  });
  await rename(partial, SERVER_BUILD_FILE);
  return SERVER_BUILD_FILE;
}

/** Vitest global setup: builds the server once for the whole run and tells the workers where. */
export default async function setup(): Promise<void> {
  process.env[SERVER_BUILD_ENV] = await buildServerForTests();
}
