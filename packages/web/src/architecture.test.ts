import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The boundaries of STYLE.md, checked on the real import graph: shared code (api, components,
 * config, lib) never imports a feature or the app shell; a feature never imports another
 * feature; only the app shell composes features. Tests and test helpers may compose freely.
 */
const SRC = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Imports of a file as paths relative to src (package imports are left out). */
function localImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)]
    .map((match) => match[1] ?? '')
    .flatMap((spec) => {
      if (spec.startsWith('@/')) return [spec.slice(2)];
      if (spec.startsWith('.')) return [relative(SRC, resolve(dirname(file), spec))];
      return [];
    });
}

const area = (path: string) => {
  const [top, name] = path.split(/[\\/]/);
  return top === 'features' ? `features/${name}` : (top ?? '');
};

describe('Module boundaries', () => {
  const files = sourceFiles(SRC).map((file) => ({ path: relative(SRC, file), imports: localImports(file) }));

  it('finds the source files', () => {
    expect(files.length).toBeGreaterThan(30);
  });

  it('keeps shared code free of features and of the app shell', () => {
    const offenders = files
      .filter((f) => ['api', 'components', 'config', 'lib'].includes(area(f.path)))
      .flatMap((f) => f.imports.filter((i) => /^(features|app)[\\/]/.test(i)).map((i) => `${f.path} -> ${i}`));
    expect(offenders).toEqual([]);
  });

  it('keeps features from importing each other or the app shell', () => {
    const offenders = files
      .filter((f) => area(f.path).startsWith('features/'))
      .flatMap((f) =>
        f.imports
          .filter((i) => i.startsWith('app') || (i.startsWith('features') && area(i) !== area(f.path)))
          .map((i) => `${f.path} -> ${i}`),
      );
    expect(offenders).toEqual([]);
  });
});

/**
 * What the first paint runs: main.tsx and every module it reaches through static, non-type
 * imports (a `lazy(() => import(...))` page is not followed). The budget of issue 6 (under
 * 100 kB of gzip before the first paint of /home) leaves no room for zod: these modules take
 * only the contract's zod-free paths module, and load the schemas with an API answer.
 */
function firstPaintGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const visit = (file: string) => {
    if (graph.has(file)) return;
    const text = readFileSync(file, 'utf8');
    const specs = [...text.matchAll(/^import\s+(?!type\s)(?:[^'";]*?\s+from\s+)?'([^']+)';/gm)].map((m) => m[1] ?? '');
    graph.set(file, specs);
    for (const spec of specs) {
      const local = spec.startsWith('@/') ? join(SRC, spec.slice(2)) : spec.startsWith('.') ? resolve(dirname(file), spec) : null;
      if (!local) continue;
      const found = ['.ts', '.tsx', '/index.ts', '/index.tsx'].map((ext) => local + ext).find((path) => existsSync(path));
      if (found) visit(found);
    }
  };
  visit(join(SRC, 'main.tsx'));
  return graph;
}

describe('The first paint', () => {
  const graph = firstPaintGraph();

  it('runs the app shell and Home, not the lazy pages', () => {
    const files = [...graph.keys()].map((file) => relative(SRC, file));
    expect(files).toEqual(expect.arrayContaining(['main.tsx', 'app/router.tsx', 'features/landing/components/home-page.tsx']));
    expect(files.filter((file) => /(vault|profile|sign-in|sign-up|splash|about)-page/.test(file))).toEqual([]);
  });

  it('imports neither zod nor the crypto package, and of the contract only its paths', () => {
    const offenders = [...graph].flatMap(([file, specs]) =>
      specs
        .filter((spec) => /^(zod|@lockit\/crypto|@lockit\/contract)(\/|$)/.test(spec) && spec !== '@lockit/contract/paths')
        .map((spec) => `${relative(SRC, file)} -> ${spec}`),
    );
    expect(offenders).toEqual([]);
  });
});
