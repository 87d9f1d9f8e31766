import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The module boundaries of docs/architecture.md (features never import each other, shared code never imports
 * a feature) are lint rules now: eslint.config.js, proved by tools/lint/architecture-rules.test.ts.
 */
const SRC = dirname(fileURLToPath(import.meta.url));

/**
 * What the app's first render runs: main.tsx (which boot.ts, the page's one script, loads)
 * and every module it reaches through static, non-type imports (a `lazy(() => import(...))`
 * page is not followed). It stays small, with no zod: these modules take only the contract's
 * zod-free paths and site-settings modules, and load the schemas with an API answer.
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

describe('The page script, boot.ts', () => {
  const boot = readFileSync(join(SRC, 'boot.ts'), 'utf8');

  it('imports only the stylesheet, so a prerendered page paints from HTML and CSS alone', () => {
    expect([...boot.matchAll(/^import\s+(?:[^'";]*?\s+from\s+)?'([^']+)';/gm)].map((m) => m[1])).toEqual(['./index.css']);
  });

  it('loads the app with a dynamic import', () => {
    expect(boot).toContain("import('./main')");
  });
});

describe('The first render', () => {
  const graph = firstPaintGraph();

  it('runs the app shell and Home, not the lazy pages', () => {
    const files = [...graph.keys()].map((file) => relative(SRC, file));
    expect(files).toEqual(expect.arrayContaining(['main.tsx', 'app/router.tsx', 'features/landing/components/home-page.tsx']));
    expect(files.filter((file) => /(vault|profile|sign-in|sign-up|splash|about)-page/.test(file))).toEqual([]);
  });

  it('imports neither zod nor the crypto package, and of the contract only its zod-free paths and site settings', () => {
    const zodFree = ['@lockit/contract/paths', '@lockit/contract/site-settings'];
    const offenders = [...graph].flatMap(([file, specs]) =>
      specs
        .filter((spec) => /^(zod|@lockit\/crypto|@lockit\/contract)(\/|$)/.test(spec) && !zodFree.includes(spec))
        .map((spec) => `${relative(SRC, file)} -> ${spec}`),
    );
    expect(offenders).toEqual([]);
  });
});
