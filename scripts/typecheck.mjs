// Type checks every TypeScript project of the repository: each workspace with a `typecheck`
// script, and the tools. Each project is its own `tsc -p` (their compiler options differ: the
// DOM, JSX, path aliases), so they run side by side, one per core, the largest first so that
// no large one starts last. Each project's output is printed whole once it is done; the exit
// code is non-zero when any project fails.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const projects = [
  ...workspaces.filter((dir) => JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')).scripts?.typecheck),
  'tools/lint',
  'tools/decrypt-backup',
  // The service worker's own project: its global scope is not the page's DOM.
  'packages/web/service-worker',
];

/** TypeScript files under a folder (node_modules and build output aside): a measure of its checking time. */
function sourceCount(dir) {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).filter(
    (file) => /\.tsx?$/.test(file) && !/(^|\/)(node_modules|dist)\//.test(file),
  ).length;
}
const queue = projects.map((dir) => ({ dir, size: sourceCount(dir) })).sort((a, b) => b.size - a.size);

const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
let failed = 0;

function check(dir) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [tsc, '-p', dir], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      if (code !== 0) {
        failed++;
        process.stdout.write(`typecheck ${dir}: failed\n${output}`);
      } else if (output.trim() !== '') process.stdout.write(output);
      done();
    });
  });
}

async function worker() {
  for (let next = queue.shift(); next; next = queue.shift()) await check(next.dir);
}

await Promise.all(Array.from({ length: Math.min(availableParallelism(), queue.length) }, worker));
process.exit(failed === 0 ? 0 : 1);
