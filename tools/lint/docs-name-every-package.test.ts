import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The README and docs/architecture.md are a newcomer's map: every workspace package, every tool
 * and every server folder is named there, so one added without a line in the docs fails here.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(`${ROOT}${path}`, 'utf8');
const folders = (path: string) =>
  readdirSync(`${ROOT}${path}`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const readme = read('README.md');
const architecture = read('docs/architecture.md');
const workspaces = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces;
const tools = folders('tools').map((name) => `tools/${name}`);

describe('the docs name every part of the repository', () => {
  it.each([...workspaces, ...tools])('README.md and docs/architecture.md name %s', (path) => {
    expect(readme).toContain(`\`${path}\``);
    expect(architecture).toContain(path.split('/').pop());
  });

  it.each(folders('packages/server/src'))('docs/architecture.md names the server folder %s/', (folder) => {
    expect(architecture).toContain(`\`${folder}/\``);
  });

  it.each(folders('packages/server/src/routes'))('docs/architecture.md names the route folder %s/', (folder) => {
    expect(architecture).toContain(`\`${folder}/\``);
  });
});
