import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, createLogger, type Logger, type PluginOption, type UserConfigFnObject } from 'vite';
import viteConfig from '../vite.config.ts';

/** The steps after the bundle (compression, prerendering) print nothing and cost most of the build's time. */
const AFTER_THE_BUNDLE = new Set(['lockit:precompress', 'lockit:prerender']);

/** A logger that keeps every warning and error instead of printing it. */
function collectingLogger(said: string[]): Logger {
  const logger = createLogger('warn', { allowClearScreen: false });
  logger.warn = (message) => void said.push(message);
  logger.warnOnce = (message) => void said.push(message);
  logger.error = (message) => void said.push(message);
  return logger;
}

/**
 * What the production build of the web app (the page bundle and its workers) says at `warn`
 * level and above, written nowhere: the build itself with the app's own config, minus the steps
 * after the bundle. A fresh clone's `npm run build` must say nothing (tools/quiet-build.test.ts).
 */
export async function buildWarnings(): Promise<string[]> {
  const config = (viteConfig as UserConfigFnObject)({ command: 'build', mode: 'production', isSsrBuild: false });
  const plugins = (config.plugins ?? [])
    .flat()
    .filter(
      (plugin: PluginOption) => !(plugin && typeof plugin === 'object' && 'name' in plugin && AFTER_THE_BUNDLE.has(plugin.name)),
    );
  const said: string[] = [];
  // Written, to a folder of its own: the chunk-size check runs as the files are written.
  const outDir = await mkdtemp(join(tmpdir(), 'lockit-web-build-'));
  try {
    await build({
      ...config,
      configFile: false,
      root: fileURLToPath(new URL('..', import.meta.url)),
      plugins,
      customLogger: collectingLogger(said),
      logLevel: 'warn',
      build: { ...config.build, outDir, emptyOutDir: true },
    });
    // Vite bundles a worker only for `new Worker(new URL('./x.ts', import.meta.url))` written
    // out; any other use of such a URL copies the TypeScript source as an asset, and the worker
    // then fails to load in every browser, silently where the page falls back to itself.
    for (const file of await readdir(join(outDir, 'assets'))) {
      if (/\.[cm]?tsx?$/.test(file)) said.push(`A worker was copied as source, not bundled: assets/${file}`);
    }
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
  return said;
}

// Run as a process (the test does: the web tests' jsdom is no place for a bundler), it prints them as JSON.
// A production build as `npm run build` makes it: some checks run only then, whatever NODE_ENV the caller had.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.env.NODE_ENV = 'production';
  process.stdout.write(`${JSON.stringify(await buildWarnings())}\n`);
}
