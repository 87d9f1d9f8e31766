import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
// Paths from import.meta.dirname: under jsdom, `URL` is the page's, which refuses file: URLs.
const SCRIPT = join(import.meta.dirname, 'build-warnings.ts');

describe('the production build', () => {
  it(
    'prints no warning: no Node built-in externalised for the browser, no chunk over the size limit, every worker bundled',
    async () => {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', SCRIPT], {
        cwd: join(import.meta.dirname, '..'),
        maxBuffer: 16 * 1024 * 1024,
      });
      const warnings = JSON.parse(stdout.trim().split('\n').at(-1)!) as string[];
      expect(warnings).toEqual([]);
    },
    // The page bundle and its workers, on 2 busy cores.
    180_000,
  );
});
