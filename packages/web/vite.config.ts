import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';
import { kdbxwebBrowserCrypto } from './tools/kdbxweb-browser-crypto.ts';
import { refuseMovedSettings } from './tools/moved-settings.ts';
import { precompress } from './tools/precompress.ts';
import { prerenderLanding } from './tools/prerender.ts';
import { serviceWorkerBuild } from './tools/service-worker-build.ts';

/**
 * The built app is served under a strict CSP (`script-src 'self' 'wasm-unsafe-eval';
 * style-src 'self'`), so nothing may end up inline in index.html: no module-preload
 * polyfill, no inlined assets as data: URLs. The KDF worker is emitted as its own file.
 *
 * The libraries every page runs (React, the router, TanStack Query) form one `framework`
 * chunk. Left to itself, Rolldown splits the modules /home shares with the lazy
 * pages into several common chunks once enough pages share them (the vault did it), which
 * costs /home about 2 kB of gzip for the same code; one named chunk keeps /home small and
 * stays cached across releases that change only the app. Libraries the first paint does
 * not need (zod with the contract's schemas, hash-wasm, @tanstack/react-virtual) are not in
 * it and arrive with the pages or the first API answer that need them.
 */
const FRAMEWORK = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/](react-query|query-core))[\\/]/;

/**
 * The contract as browsers load it (zod and every schema; its zod-free paths module stays
 * on the first paint): a chunk shared by the lazy pages and loaded by the app shell with its
 * first API answer (src/lib/contract.ts). Named `contract` rather than after its file.
 */
const CONTRACT_ENTRY = /[\\/]packages[\\/]contract[\\/]src[\\/]browser\.ts$/;

/**
 * zxcvbn's dictionaries (about 1.6 MB of the strength meter's 1.66 MB) as one chunk each
 * (`zxcvbn-passwords-common`, `zxcvbn-lastnames-en`, ...), all under the 500 kB a chunk may
 * weigh. The engine imports them, so they still load only with it (on first use of the meter,
 * or in the health worker), in parallel instead of as one 1.6 MB file.
 */
const ZXCVBN_DICTIONARY = /[\\/]node_modules[\\/]@zxcvbn-ts[\\/]language-(\w+)[\\/]dist[\\/](\w+)\.json\.mjs$/;
const zxcvbnDictionaries = {
  debugName: 'zxcvbn-dictionaries',
  name: (id: string) => {
    const match = ZXCVBN_DICTIONARY.exec(id);
    return match ? `zxcvbn-${match[2]}-${match[1]}` : null;
  },
  test: ZXCVBN_DICTIONARY,
};

/**
 * Rolldown's timing report ("[PLUGIN_TIMINGS] JavaScript callbacks ran for ...") is a profiling
 * hint, not a fault: its one long callback is the Brotli-11 precompression this build does on
 * purpose so no request pays for it (decision 0018), and the share it reports moves with the
 * load of a shared 2-core machine. Profile with `node --cpu-prof` when the build gets slow.
 */
const BUNDLER_CHECKS = { bundlerTimings: false };

const ROOT = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig(({ mode }) => {
  // The credit and social links are the server's runtime settings now (decision 0082).
  refuseMovedSettings(loadEnv(mode, ROOT, 'VITE_LOCKIT_'));
  return {
    plugins: [react(), tailwindcss(), kdbxwebBrowserCrypto(), serviceWorkerBuild(), precompress(), prerenderLanding()],
    resolve: {
      alias: [
        { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
        // Every bare `zod` import, the app's, the client core's and the transfer formats', in
        // pages and workers alike: jitless first, so the CSP reports no eval probe.
        { find: /^zod$/, replacement: fileURLToPath(new URL('../contract/src/zod-jitless.ts', import.meta.url)) },
      ],
    },
    server: {
      proxy: { '/api': { target: 'http://127.0.0.1:3000' } },
    },
    build: {
      outDir: fileURLToPath(new URL('./dist', import.meta.url)),
      emptyOutDir: true,
      modulePreload: { polyfill: false },
      assetsInlineLimit: 0,
      rolldownOptions: {
        checks: BUNDLER_CHECKS,
        output: {
          codeSplitting: { groups: [{ name: 'framework', test: FRAMEWORK }, zxcvbnDictionaries] },
          chunkFileNames: (chunk) => {
            const name = chunk.moduleIds.some((id) => CONTRACT_ENTRY.test(id)) ? 'contract' : '[name]';
            return `assets/${name}-[hash].js`;
          },
        },
      },
    },
    worker: {
      format: 'es',
      // The import worker bundles kdbxweb too, and the health worker zxcvbn.
      plugins: () => [kdbxwebBrowserCrypto()],
      rolldownOptions: { checks: BUNDLER_CHECKS, output: { codeSplitting: { groups: [zxcvbnDictionaries] } } },
    },
  };
});
