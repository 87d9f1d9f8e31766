import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

const ROOT = fileURLToPath(new URL('.', import.meta.url));

/**
 * Test files that replace modules or globals (vi.mock, vi.doMock, vi.stubEnv, vi.stubGlobal),
 * that write into the document's head before the app is imported (the server's settings),
 * or that prerender pages as the build does (React's static renderer leaves context values
 * behind that the next file's client render trips over): they run isolated, each in a fresh
 * module graph, so what they change never leaks into another file. Found by reading the files,
 * so a new one is isolated without editing this list.
 */
const NEEDS_ISOLATION = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.tsx?$/.test(file))
  .filter((file) =>
    /\bvi\.(mock|doMock|stubEnv|stubGlobal)\(|document\.head\.append\(|from '\.\/render-page'/.test(
      readFileSync(join(ROOT, 'src', file), 'utf8'),
    ),
  )
  .map((file) => `src/${file.split(sep).join('/')}`);

const shared = {
  root: ROOT,
  plugins: [react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
} satisfies UserWorkspaceConfig;

const test = {
  environment: 'jsdom' as const,
  setupFiles: ['./src/testing/setup.ts'],
  testTimeout: 20_000,
};

/**
 * The web app's tests. Most share one module graph per worker (isolate: false): jsdom, React and
 * the app are loaded once per worker instead of once per file, which halves the suite's time on
 * 2 cores; src/testing/setup.ts unmounts, restores the clock and spies, and clears storage after
 * every test.
 */
export const webProjects = [
  defineProject({
    ...shared,
    test: {
      ...test,
      name: 'web',
      include: ['src/**/*.test.{ts,tsx}', 'tools/**/*.test.ts'],
      exclude: NEEDS_ISOLATION,
      isolate: false,
    },
  }),
  defineProject({ ...shared, test: { ...test, name: 'web:isolated', include: NEEDS_ISOLATION } }),
];

export default webProjects[0];
