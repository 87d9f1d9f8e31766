import type { BuildOptions } from 'esbuild';

/** The popup's own esbuild options (entry, splitting, chunk names), given the package's folder. */
export function popupBuildOptions(here: string): BuildOptions;
