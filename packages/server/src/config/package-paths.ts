import { fileURLToPath } from 'node:url';

/*
 * Every file path the server finds relative to its own code, in one module so they all sit at
 * one depth: the test launcher's single-file build of the server (`.test-build/server/main.mjs`,
 * two folders below the package like this file) resolves them the same way as the sources do.
 */

/** The server's package.json (its version). */
export const SERVER_PACKAGE_JSON = new URL('../../package.json', import.meta.url);

/** The built web app beside the server in the repo (WEB_DIST_DIR overrides it). */
export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));
