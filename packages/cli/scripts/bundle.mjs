// Bundles the thin client (src/client, src/shared and commander) into dist/lockit.mjs: one file
// parses and links about 15 ms sooner than the 25 modules it is made of, which is a tenth of a
// `lockit get` (docs/cli.md#speed). bin/load-client.js uses it only while it is newer than every
// source file, so an edit takes effect without a build.
import { build } from 'esbuild';

await build({
  entryPoints: [new URL('../src/client/main.js', import.meta.url).pathname],
  outfile: new URL('../dist/lockit.mjs', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // commander is CommonJS and requires Node's built-ins; ESM output needs a require for them.
  banner: { js: "import { createRequire as lockitRequire } from 'node:module'; const require = lockitRequire(import.meta.url);" },
  // Tells agent-client.js that it runs from dist/, one folder up from the package's root.
  define: { 'globalThis.lockitBundled': 'true' },
  logLevel: 'warning',
});
