import { join } from 'node:path';

/**
 * The popup's own esbuild options, shared by build.mjs and the bundle's test. Split into chunks
 * (ES modules): its entry (main.tsx) is first-list.ts alone, which asks the worker for the
 * first list at once; the mount chunk brings React and the list; what is not needed to show an
 * open vault (the account forms, the preferences with the contract's schemas and tldts) is
 * imported on demand.
 */
export function popupBuildOptions(here) {
  return {
    entryPoints: { popup: join(here, 'src/popup/main.tsx') },
    splitting: true,
    format: 'esm',
    chunkNames: 'chunks/[name]-[hash]',
  };
}
