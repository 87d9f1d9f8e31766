import { readdirSync, readFileSync } from 'node:fs';
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
