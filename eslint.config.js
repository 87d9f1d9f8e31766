import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import importPlugin from 'eslint-plugin-import';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * One flat config for the whole repository, found upward by `eslint .` in any package.
 *
 * Beside the usual checks it encodes the architecture (docs/architecture.md)
 * so a boundary break fails `npm run lint` with a message naming the rule it breaks:
 * - no import cycles, across packages too;
 * - crypto and contract import neither the server nor the web app (nor the test toolkit);
 * - the web app never imports the server or the test toolkit; the server never imports React
 *   or the web app;
 * - web features never import each other or the app shell; shared web code (api, components,
 *   config, lib) never imports a feature or the app shell;
 * - packages are used through their `exports`, never through another package's `src/`.
 * tools/lint/architecture-rules.test.ts proves each of these fires.
 *
 * The boundaries are `import/no-restricted-paths` zones, which compare resolved files, so
 * `@lockit/server`, `../../server/src/...` and the web app's `@/` alias are all caught alike.
 */

const ROOT = import.meta.dirname;
const WEB_SRC = 'packages/web/src';
const WEB_FEATURES = `${WEB_SRC}/features`;

/** Every feature folder of the web app: a new feature is fenced without editing this file. */
const features = readdirSync(join(ROOT, WEB_FEATURES), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const WEB_SHARED = ['api', 'components', 'config', 'lib'].map((dir) => `${WEB_SRC}/${dir}`);

/** React resolves to its types (@types/react) where they exist, to its code otherwise. */
const REACT = ['react', 'react-dom', '@types/react', '@types/react-dom'];

/**
 * What the client core may not touch: the globals of one platform only. It runs in a page, a
 * worker, an MV3 service worker and Node, so storage, workers, fetch and the clock come in as
 * arguments. (WebCrypto's `crypto`, TextEncoder and the like exist on all of them.)
 */
const PLATFORM_GLOBALS = [
  'window',
  'document',
  'localStorage',
  'sessionStorage',
  'indexedDB',
  'navigator',
  'location',
  'chrome',
  'browser',
  'process',
  'Buffer',
  'require',
  '__dirname',
  '__filename',
].map((name) => ({
  name,
  message: `Architecture: the client core uses no platform global ("${name}"); take it as an argument (docs/architecture.md).`,
}));

/** Boundaries between packages: they hold for tests too. */
const packageZones = [
  {
    target: 'packages/crypto',
    from: ['packages/contract', 'packages/client-core', 'packages/server', 'packages/web', 'packages/test-support'],
    message:
      'Architecture: @lockit/crypto imports neither the contract, the server, the web app nor the test toolkit (docs/architecture.md).',
  },
  {
    target: 'packages/contract',
    from: ['packages/client-core', 'packages/server', 'packages/web', 'packages/test-support'],
    message:
      'Architecture: @lockit/contract imports neither the server, the web app nor the test toolkit (docs/architecture.md).',
  },
  {
    target: 'packages/transfer',
    from: ['packages/server', 'packages/web', 'packages/test-support'],
    message:
      'Architecture: @lockit/transfer (import and export formats) imports neither the server, the web app nor the test toolkit (docs/architecture.md).',
  },
  {
    target: 'packages/client-core/src',
    from: ['packages/server', 'packages/web', 'packages/test-support', ...REACT.map((name) => `node_modules/${name}`)],
    message:
      'Architecture: the client core imports neither the server, the web app, the test toolkit nor React: every client (web, extension, command line) runs it, and its platform comes in as arguments (docs/architecture.md).',
  },
  {
    target: 'packages/web',
    from: ['packages/server', 'packages/test-support'],
    message:
      'Architecture: the web app never imports the server or the test toolkit; it talks to the server over /api only (docs/architecture.md).',
  },
  {
    target: 'packages/test-support',
    from: ['packages/server', 'packages/web'],
    message:
      'Architecture: the test toolkit imports neither the server nor the web app; it starts the server as a process (docs/architecture.md).',
  },
  {
    target: 'packages/extension/src',
    from: ['packages/server', 'packages/web', 'packages/test-support'],
    message:
      'Architecture: the extension imports neither the server, the web app nor the test toolkit; it runs the client core and talks to the server over /api only (docs/architecture.md).',
  },
  {
    target: 'packages/cli',
    from: ['packages/server', 'packages/web', 'packages/transfer', ...REACT.map((name) => `node_modules/${name}`)],
    message:
      'Architecture: the command line imports neither the server, the web app nor React; its agent runs the client core (docs/architecture.md).',
  },
  {
    target: ['packages/cli/src/client', 'packages/cli/src/shared', 'packages/cli/bin'],
    from: ['packages/client-core', 'packages/contract', 'packages/crypto', 'packages/cli/src/agent', 'node_modules/zod'],
    message:
      "Architecture: the command line's thin client loads no schema, route table or crypto, so `lockit` starts as fast as Node; it asks the agent over its socket (decision 0068, docs/architecture.md).",
  },
  {
    target: 'packages/cli/src',
    from: 'packages/test-support',
    message: 'Architecture: the command line uses the test toolkit in its tests only (docs/architecture.md).',
  },
  {
    target: 'packages/server',
    // React resolves to its types (@types/react) where they exist, to its code otherwise.
    from: ['packages/web', ...REACT.map((name) => `node_modules/${name}`)],
    message: 'Architecture: the server never imports the web app or React (docs/architecture.md).',
  },
];

/**
 * Boundaries inside the web app (bulletproof-react's layout): only the app shell composes
 * features. Tests and src/testing may compose freely, as a page test renders the whole app.
 */
const webZones = [
  ...features.map((feature) => ({
    target: `${WEB_FEATURES}/${feature}`,
    from: [WEB_FEATURES, `${WEB_SRC}/app`],
    except: [`./${feature}`],
    message: `Architecture: a web feature imports neither another feature nor the app shell (src/app); move what "${feature}" needs from there into shared code (src/api, components, config, lib) (docs/architecture.md).`,
  })),
  {
    target: WEB_SHARED,
    from: [WEB_FEATURES, `${WEB_SRC}/app`],
    message:
      'Architecture: shared web code (src/api, components, config, lib) never imports a feature or the app shell; pass what it needs in, or move the code into the feature (docs/architecture.md).',
  },
];

/**
 * import/no-cycle, except on a file that is not on disk (an editor's unsaved buffer, a file moved
 * while `eslint .` runs, the virtual sources of tools/lint's test): the plugin finds no module
 * graph for such a file and throws instead of reporting. It is checked once it is saved.
 */
const noCycle = importPlugin.rules['no-cycle'];
const importRules = {
  ...importPlugin,
  rules: {
    ...importPlugin.rules,
    'no-cycle': { ...noCycle, create: (context) => (existsSync(context.physicalFilename) ? noCycle.create(context) : {}) },
  },
};

const restrictedPaths = (zones) => ['error', { basePath: ROOT, zones }];

/** Package specifiers that reach into a package's src/ instead of its `exports`. */
const deepImports = [
  'error',
  {
    patterns: [
      {
        group: ['@lockit/*/src', '@lockit/*/src/**'],
        message:
          "Architecture: use a package through its `exports` (add an export to its package.json), never another package's src/.",
      },
    ],
  },
];

const WEB_TESTS = [`${WEB_SRC}/**/*.test.{ts,tsx}`, `${WEB_SRC}/testing/**`];

/**
 * The package boundaries for the web app's tests: the same, except that they may use the
 * toolkit's Pwned Passwords stand-in (`@lockit/test-support/pwned-stand-in`, Node built-ins
 * only), which e2e uses too, so there is one copy. The rest of the toolkit stays out.
 */
const webTestPackageZones = packageZones.flatMap((zone) =>
  zone.target === 'packages/web'
    ? [
        { ...zone, from: zone.from.filter((from) => from !== 'packages/test-support') },
        { ...zone, from: 'packages/test-support', except: ['./src/pwned-stand-in.ts'] },
      ]
    : [zone],
);

export default defineConfig(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      // The server as the test suites build it into one file (test-support's server-build.ts).
      '**/.test-build/**',
      // Declarations tsc -b writes for the projects that reference a package (npm run typecheck).
      '.tsbuild/**',
      '**/coverage/**',
      'test-results/**',
      'bench/results/**',
      // Deliberate violations, linted only by tools/lint/architecture-rules.test.ts.
      'tools/lint/fixtures/**',
    ],
  },
  js.configs.recommended,
  // Syntax-only: the type-aware set (recommendedTypeChecked) took 3 min 39 s for the repository
  // on this 2-core machine against about 45 s without it, far over a minute's budget for a step
  // every test run takes; `npm run typecheck` already runs the compiler.
  tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { import: importRules },
    settings: {
      'import/extensions': ['.ts', '.tsx', '.mts', '.js', '.mjs'],
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.mts'] },
      'import/resolver': {
        typescript: {
          alwaysTryTypes: true,
          // Each package's paths, among them the web app's `@/` alias.
          project: ['packages/*/tsconfig.json', 'e2e/tsconfig.json', 'bench/tsconfig.json', 'tools/lint/tsconfig.json'].map(
            (path) => join(ROOT, path),
          ),
        },
        node: true,
      },
      // Cycles and boundaries are about our own files; parsing libraries would only cost time.
      'import/ignore': ['node_modules'],
      // One CLI run: keep parsed modules for the whole run (the default forgets them after 30 s).
      'import/cache': { lifetime: Infinity },
    },
    rules: {
      'import/no-cycle': ['error', { ignoreExternal: true }],
      'import/no-relative-packages': 'error',
      'import/no-restricted-paths': restrictedPaths([...packageZones, ...webZones]),
      'no-restricted-imports': deepImports,
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['packages/client-core/src/**/*.ts'],
    ignores: ['packages/client-core/src/**/*.test.ts'],
    rules: {
      'no-restricted-globals': ['error', ...PLATFORM_GLOBALS],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...deepImports[1].patterns,
            {
              group: ['node:*', 'fs', 'path', 'os', 'child_process', 'react', 'react-dom', 'react/*'],
              message:
                'Architecture: the client core imports no Node built-in and no React; the platform comes in as arguments (docs/architecture.md).',
            },
          ],
        },
      ],
    },
  },
  {
    // Nothing imports a test file, so it cannot be in a cycle; checking one would rebuild the
    // graph of everything it imports (a third of the lint time).
    files: ['**/*.test.{ts,tsx}'],
    rules: { 'import/no-cycle': 'off' },
  },
  {
    files: WEB_TESTS,
    rules: { 'import/no-restricted-paths': restrictedPaths(webTestPackageZones) },
  },
  {
    // TypeScript checks the names a .ts file uses (typescript-eslint turns no-undef off there);
    // only plain JavaScript needs globals declared. Keeping them out of the TypeScript files also
    // keeps eslint-plugin-import fast: it serialises the language options on every lookup.
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: [`packages/web/src/**/*.{ts,tsx}`],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: [`packages/web/src/**/*.{ts,tsx}`],
    rules: {
      'react-hooks/exhaustive-deps': 'error',
      // The rest of v7's set (refs read in render, setState in an effect, impure render...) flags
      // bugs with or without React Compiler and stays. These two only say the compiler would skip
      // a component (e.g. one using TanStack Virtual); the app does not use the compiler.
      'react-hooks/incompatible-library': 'off',
      'react-hooks/unsupported-syntax': 'off',
    },
  },
  {
    files: [`packages/web/src/**/*.tsx`],
    ...jsxA11y.flatConfigs.recommended,
  },
  prettier,
);
