import { execFileSync } from 'node:child_process';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * `npm run typecheck` is `tsc -b tsconfig.typecheck.json`: a project it does not list is never
 * checked, and nothing else would say so. Every tsconfig.json of the repository is listed.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function referencesOf(file: string): string[] {
  const { config, error } = ts.readConfigFile(file, (path) => ts.sys.readFile(path));
  expect(error).toBeUndefined();
  return ((config as { references?: Array<{ path: string }> }).references ?? []).map((reference) =>
    relative(ROOT, resolve(dirname(file), reference.path)),
  );
}

const projects = execFileSync('git', ['ls-files', '--', '*/tsconfig.json'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((path) => path !== '')
  .map((path) => dirname(path));

describe('the type check', () => {
  it('finds the projects', () => {
    expect(projects).toContain('packages/client-core');
    expect(projects).toContain('packages/web/service-worker');
  });

  it.each(projects)('checks %s', (project) => {
    expect(referencesOf(join(ROOT, 'tsconfig.typecheck.json'))).toContain(project);
  });
});
