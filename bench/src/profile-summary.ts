import { readFileSync } from 'node:fs';

/**
 * Summarises a V8 .cpuprofile (from BENCH_PROFILE_DIR): self time by function and by
 * package, so a missed budget can be traced to where the time goes.
 * Usage: node --import tsx bench/src/profile-summary.ts <file.cpuprofile> [top]
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topText] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfTime = new Map<number, number>();
profile.samples.forEach((id, i) => selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...selfTime.values()].reduce((a, b) => a + b, 0);

const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
for (const [id, micros] of selfTime) {
  const frame = byId.get(id)?.callFrame;
  if (!frame) continue;
  const where = frame.url.replace(/^file:\/\//, '').replace(/.*node_modules\//, '');
  const key = `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
  const pkg = frame.url.includes('node_modules/')
    ? (frame.url.split('node_modules/').pop() ?? '')
        .split('/')
        .slice(0, 2)
        .join('/')
        .replace(/\/[^@].*$/, '')
    : frame.url.includes('/packages/')
      ? `lockit:${frame.url.split('/packages/')[1]?.split('/')[0]}`
      : frame.url.startsWith('node:')
        ? 'node-internal'
        : frame.functionName.startsWith('(')
          ? frame.functionName
          : 'other';
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + micros);
}
const show = (title: string, map: Map<string, number>, top: number) => {
  console.log(`\n${title}`);
  for (const [key, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((100 * micros) / total).toFixed(1).padStart(5)}%  ${key}`);
  }
};
show('self time by package', byPackage, 20);
show('self time by function', byFunction, Number(topText ?? 40));
