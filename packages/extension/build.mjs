// Builds the extension for Chromium and Firefox into dist/<browser>/ (a folder a browser loads
// unpacked) and dist/lockit-<browser>.zip, from one source. esbuild bundles each entry: the
// service worker as one ES module (an MV3 worker may not import() at run time), the popup split
// into chunks (popup-build.mjs).
import { build } from 'esbuild';
import { zipSync } from 'fflate';
import { copyFileSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { manifestFor } from './manifest.mjs';
import { popupBuildOptions } from './tools/popup-build.mjs';
import { webAppFiles } from './tools/web-app-files.mjs';

const here = import.meta.dirname;
const dist = resolve(here, 'dist');
const { version } = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));

// The web app of this same release (`npm run build` builds it first): the hashes its service
// worker compares a served web vault against (decision 0082).
const webApp = webAppFiles(process.env.LOCKIT_WEB_DIST ?? resolve(here, '../web/dist'));
console.log(`extension: embeds the hashes of ${Object.keys(webApp).length} web app files`);

// Every bare `zod` import (the extension's, the client core's, the contract's) resolves to a
// module that sets jitless first, so no eval probe runs under the extension's CSP.
const zodJitless = {
  name: 'zod-jitless',
  setup(build) {
    build.onResolve({ filter: /^zod$/ }, () => ({ path: resolve(here, '../contract/src/zod-jitless.ts') }));
  },
};

rmSync(dist, { recursive: true, force: true });

for (const browser of ['chromium', 'firefox']) {
  const out = join(dist, browser);
  const modules = {
    outdir: out,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    // The contract's and the route table's browser entries: zod jitless under the extension's CSP.
    conditions: ['browser'],
    plugins: [zodJitless],
    target: ['chrome120', 'firefox140'],
    jsx: 'automatic',
    minify: true,
    // fill-in-frame is sent to pages as its source text: no renamed helpers may leak into it.
    keepNames: false,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"', LOCKIT_WEB_APP_FILES: JSON.stringify(webApp) },
    logLevel: 'warning',
  };
  await build({
    ...modules,
    entryPoints: {
      'service-worker': join(here, 'src/background/service-worker.ts'),
      menu: join(here, 'src/menu/menu.ts'),
    },
  });
  // The popup apart, split: what its first paint needs loads first, the rest on demand.
  await build({ ...modules, ...popupBuildOptions(here) });
  // Content scripts are classic scripts: their own bundle, no module syntax.
  await build({
    entryPoints: {
      'content-script': join(here, 'src/content/content-script.ts'),
      // Registered for the connected server's pages only, at document_start (decision 0082).
      'served-code-watch': join(here, 'src/content/served-code-watch.ts'),
    },
    outdir: out,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome120', 'firefox140'],
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  copyFileSync(join(here, 'src/menu/menu.html'), join(out, 'menu.html'));
  copyFileSync(join(here, 'src/menu/menu.css'), join(out, 'menu.css'));
  copyFileSync(join(here, 'src/popup/popup.html'), join(out, 'popup.html'));
  copyFileSync(join(here, 'src/popup/popup.css'), join(out, 'popup.css'));
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifestFor(browser, version), null, 2)}\n`);
  const files = {};
  for (const file of readdirSync(out, { recursive: true, encoding: 'utf8' })) {
    const path = join(out, file);
    if (statSync(path).isFile()) files[relative(out, path)] = readFileSync(path);
  }
  writeFileSync(join(dist, `lockit-${browser}.zip`), zipSync(files, { level: 9, mtime: new Date('2026-01-01T00:00:00Z') }));
  console.log(`extension: dist/${browser}/ and dist/lockit-${browser}.zip`);
}
