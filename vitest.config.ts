import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
// A relative import on purpose: Vitest bundles the files its config imports by path, but loads a
// package import with Node, which cannot run TypeScript.
// eslint-disable-next-line import/no-relative-packages
import { webProjects } from './packages/web/vitest.config';

/**
 * One runner for every suite. The server suite runs twice: on SQLite, and on PostgreSQL
 * (LOCKIT_TEST_PG_URL, default the local server) so both dialects stay green.
 */
/**
 * The Node projects' files share one module graph per worker: the server app, its database
 * drivers, Argon2 and playwright-core load once per worker instead of once per file (the
 * server suite on SQLite: 142 s isolated, 85 s shared, on 2 cores). No file of these projects
 * replaces a module or a global (vi.mock, vi.stubEnv, vi.stubGlobal); each starts its own
 * server, database and browser context. The web projects choose for themselves
 * (packages/web/vitest.config.ts).
 */
const node = { environment: 'node', isolate: false } as const;

/**
 * The suites that start the server as a process build it into one file first, once per run
 * (packages/test-support/src/server-build.ts: a start without tsx's compile is seconds shorter).
 */
const serverBuild = resolve(import.meta.dirname, 'packages/test-support/src/server-build.ts');

/**
 * Server test files that prove nothing about the database: the HTTP layer refuses before a
 * handler runs, or the file starts its server on SQLite whatever the project says. They run
 * once, on SQLite; running them on PostgreSQL too repeated the same sockets, timers and child
 * processes for no further proof. A file whose requests reach
 * a query stays on both (hostile-input, bad-bytes and sign-in-flood among them: PostgreSQL
 * refuses a NUL that SQLite stores, and its pool queues where SQLite blocks).
 */
const DATABASE_AGNOSTIC = [
  // Trickled bodies and connections per address: answered 408 or 503 before any handler.
  'test/slow-clients.test.ts',
  // A body over the limit gets its 413 before the route's handler, whatever the database.
  'test/oversized-bodies.test.ts',
  // Bytes too broken to route: 400 before any handler.
  'test/malformed-requests.test.ts',
  // Redis frozen and killed: the rate limiter's fallback to memory, not the database's work.
  'test/faults/redis-frozen.test.ts',
  // Start their server process on a SQLite data directory in either project.
  'test/faults/smtp-down.test.ts',
  'test/built-app-headers.test.ts',
  // Configuration parsing and WebAuthn ceremonies: no database at all.
  'test/config.test.ts',
  'test/configuration-docs.test.ts',
  'test/load-limits-config.test.ts',
  'test/sign-up-config.test.ts',
  'test/webauthn-ceremonies.test.ts',
];

/**
 * A folder of real export files of other managers (LOCKIT_IMPORT_CORPUS), if you have one: its
 * project runs only when the folder exists; without it nothing is collected.
 */
const importCorpus = process.env['LOCKIT_IMPORT_CORPUS'] ? resolve(process.env['LOCKIT_IMPORT_CORPUS']) : '';
const corpusProjects =
  importCorpus && existsSync(importCorpus)
    ? [
        {
          test: {
            name: 'transfer:corpus',
            root: 'packages/transfer',
            ...node,
            include: ['corpus/**/*.test.ts'],
            env: { LOCKIT_IMPORT_CORPUS: importCorpus },
          },
        },
      ]
    : [];

export default defineConfig({
  test: {
    // Vitest's default leaves one core free, which on a 2-core CI machine runs every file in
    // turn; the suites wait on databases, Argon2 and the browser, so all cores pay off.
    // One more than the cores: the server, end-to-end and database suites spend much of their
    // time waiting on other processes (the server under test, Chromium, PostgreSQL).
    maxWorkers: availableParallelism() + 1,
    projects: [
      { test: { name: 'crypto', root: 'packages/crypto', ...node } },
      { test: { name: 'contract', root: 'packages/contract', ...node } },
      // The client core runs in Node here, without jsdom: it takes no DOM anywhere.
      { test: { name: 'client-core', root: 'packages/client-core', ...node, include: ['src/**/*.test.ts'] } },
      // The client core against the real server (a process) on each database, and through a
      // lying server in front of it.
      ...(['sqlite', 'postgres'] as const).map((db) => ({
        test: {
          name: `client-core:${db}`,
          root: 'packages/client-core',
          ...node,
          include: ['test/**/*.test.ts'],
          globalSetup: [serverBuild],
          env: { LOCKIT_TEST_DB: db },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      })),
      // The command line against the real server (a process) on each database: real agents,
      // real sockets, real git.
      ...(['sqlite', 'postgres'] as const).map((db) => ({
        test: {
          name: `cli:${db}`,
          root: 'packages/cli',
          ...node,
          env: { LOCKIT_TEST_DB: db },
          // Each file starts a server and signs accounts up and in with real Argon2id, and each
          // command is a process: on 2 busy cores a minute is not always enough.
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      })),
      { test: { name: 'lint', root: 'tools/lint', ...node } },
      // The benches' own helpers; the benches themselves run with `npm run bench`.
      { test: { name: 'bench', root: 'bench', ...node } },
      { test: { name: 'test-support', root: 'packages/test-support', ...node } },
      // Its corpus/ folder is the transfer:corpus project below, when configured.
      { test: { name: 'transfer', root: 'packages/transfer', ...node, exclude: [...configDefaults.exclude, 'corpus/**'] } },
      ...corpusProjects,
      // The offline backup decrypter, run as a process with no server.
      { test: { name: 'decrypt-backup', root: 'tools/decrypt-backup', ...node, testTimeout: 60_000 } },
      {
        test: {
          name: 'server:sqlite',
          root: 'packages/server',
          ...node,
          env: { LOCKIT_TEST_DB: 'sqlite' },
          // Several server processes, other schemas beside Lockit's, and a database server that
          // restarts exist only on PostgreSQL.
          exclude: [
            ...configDefaults.exclude,
            'test/several-servers.test.ts',
            'test/live-sync-processes.test.ts',
            'test/postgres-schemas.test.ts',
            'test/faults/postgres-restart.test.ts',
            'test/faults/postgres-live-notices.test.ts',
          ],
          testTimeout: 20_000,
          // beforeAll hooks sign accounts up with real Argon2id: on 2 busy cores 10 s is not enough.
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server:postgres',
          root: 'packages/server',
          ...node,
          env: { LOCKIT_TEST_DB: 'postgres' },
          // The data directory and its disk matter only to SQLite; the files above prove no database.
          exclude: [...configDefaults.exclude, 'test/faults/data-directory.test.ts', ...DATABASE_AGNOSTIC],
          testTimeout: 20_000,
          // beforeAll hooks sign accounts up with real Argon2id: on 2 busy cores 10 s is not enough.
          hookTimeout: 60_000,
        },
      },
      ...webProjects,
      // The browser extension: its pure modules here, and in Debian's Chromium (its built
      // dist/chromium loaded unpacked) against the real server below.
      { test: { name: 'extension', root: 'packages/extension', ...node, include: ['src/**/*.test.ts', 'tools/**/*.test.ts'] } },
      {
        test: {
          name: 'extension:e2e',
          root: 'packages/extension',
          ...node,
          globalSetup: [serverBuild],
          include: ['test/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          expect: { poll: { timeout: 10_000 } },
        },
      },
      {
        test: {
          name: 'e2e',
          root: 'e2e',
          ...node,
          globalSetup: [serverBuild],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // A poll waits on the page's own work (decrypting, hashing, a worker's answer): on 2
          // cores shared with the server and PostgreSQL, Vitest's 1 s default fails a right
          // answer that came late. A wrong answer still fails, only later.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
