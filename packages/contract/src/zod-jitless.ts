/**
 * zod as the browser builds resolve a bare `zod` import (the web app's Vite config, the
 * extension's esbuild build): jitless before any module that imports it builds a schema.
 *
 * zod decides as each object schema is built whether to compile a faster parser, probing
 * `new Function('')` the first time; under a CSP without 'unsafe-eval' Chromium reports that
 * probe as a violation even though zod catches its error. Setting jitless in one entry module
 * is not enough: the client core, the transfer formats and the web app import zod themselves,
 * and which of their chunks runs first depends on what the person opens. Importing through
 * this module makes every importer wait for the setting. It imports `zod/v4`, the same modules
 * under another name, so the alias does not resolve it back to itself.
 */
import { config } from 'zod/v4';

config({ jitless: true });

export * from 'zod/v4';
export { default } from 'zod/v4';
