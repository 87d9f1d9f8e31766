import { build, type Metafile } from 'esbuild';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { popupBuildOptions } from './popup-build.mjs';

const here = resolve(import.meta.dirname, '..');
/** The bytes the popup loads before its first paint may not grow past this (it was 796 KB in one file). */
const FIRST_PAINT_MAX_BYTES = 300_000;
/**
 * What the first paint of an open vault does not need: the schemas (zod, the contract), the
 * Public Suffix List (tldts, through url-match) and the account forms (in a chunk on demand).
 */
const HEAVY = [
  /node_modules\/zod\//,
  /node_modules\/tldts/,
  /packages\/contract\//,
  /shared\/url-match\.ts$/,
  /popup\/account-forms\.tsx$/,
];

/** The popup built as build.mjs builds it (minified, production React), in memory. */
async function popupMetafile(): Promise<Metafile> {
  const result = await build({
    ...popupBuildOptions(here),
    bundle: true,
    platform: 'browser',
    conditions: ['browser'],
    target: ['chrome120', 'firefox140'],
    jsx: 'automatic',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    outdir: resolve(here, 'dist/bundle-test'),
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return result.metafile!;
}

/** An output and every chunk it imports statically: what loads before it runs. */
function staticClosure(metafile: Metafile, start: string): Set<string> {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const imported of metafile.outputs[path]?.imports ?? []) if (imported.kind === 'import-statement') visit(imported.path);
  };
  visit(start);
  return seen;
}

function outputOf(metafile: Metafile, entry: string): string {
  const found = Object.entries(metafile.outputs).find(([, output]) => output.entryPoint?.endsWith(entry));
  if (!found) throw new Error(`No output for ${entry}`);
  return found[0];
}

describe('the popup bundle', () => {
  it('loads only what an open vault’s first paint needs, under its size bound; the account forms load on demand', async () => {
    const metafile = await popupMetafile();
    const entry = outputOf(metafile, 'src/popup/main.tsx');
    const mount = outputOf(metafile, 'src/popup/mount.tsx');
    const firstPaint = new Set([...staticClosure(metafile, entry), ...staticClosure(metafile, mount)]);
    const bytes = [...firstPaint].reduce((sum, path) => sum + metafile.outputs[path]!.bytes, 0);
    const inputs = [...firstPaint].flatMap((path) => Object.keys(metafile.outputs[path]!.inputs));
    console.info(`popup: ${bytes} bytes before the first paint, in ${firstPaint.size} files`);

    expect(bytes).toBeLessThan(FIRST_PAINT_MAX_BYTES);
    expect(inputs.filter((input) => HEAVY.some((heavy) => heavy.test(input)))).toEqual([]);
    expect(inputs.some((input) => input.endsWith('popup/item-list.tsx'))).toBe(true);
    // The entry itself sends the first requests before React is even fetched.
    const entryInputs = [...staticClosure(metafile, entry)].flatMap((path) => Object.keys(metafile.outputs[path]!.inputs));
    expect(entryInputs.some((input) => input.endsWith('popup/first-list.ts'))).toBe(true);
    expect(entryInputs.filter((input) => input.includes('node_modules/react'))).toEqual([]);
    // The forms are still built, as a chunk of their own.
    expect(outputOf(metafile, 'src/popup/account-forms.tsx')).toMatch(/dist\/bundle-test\/chunks\//);
  });
});
