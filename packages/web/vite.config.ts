import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The built app is served under a strict CSP (`script-src 'self' 'wasm-unsafe-eval';
 * style-src 'self'`), so nothing may end up inline in index.html: no module-preload
 * polyfill, no inlined assets as data: URLs. The KDF worker is emitted as its own file.
 *
 * The libraries every page runs (React, the router, TanStack Query, zod) form one
 * `framework` chunk. Left to itself, Rolldown splits the modules /home shares with the lazy
 * pages into several common chunks once enough pages share them (the vault did it), which
 * costs /home about 2 kB of gzip for the same code; one named chunk keeps /home small and
 * stays cached across releases that change only the app. Lazy-only libraries (hash-wasm,
 * @tanstack/react-virtual) are not in it and still arrive with their pages.
 */
const FRAMEWORK =
  /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/](react-query|query-core)|zod)[\\/]/;

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
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
      output: { codeSplitting: { groups: [{ name: 'framework', test: FRAMEWORK }] } },
    },
  },
  worker: { format: 'es' },
});
