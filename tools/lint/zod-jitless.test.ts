import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { resolveConfig } from 'vite';
import { describe, expect, it } from 'vitest';

/**
 * Builds and parses an object schema with zod imported as `specifier`, in a process of its own
 * (zod's setting and its probe's answer are per process), and returns the bodies handed to the
 * `Function` constructor: zod's eval probe and its compiled parsers.
 */
function functionsBuiltWith(specifier: string): string[][] {
  const script = `
    const built = [];
    const Real = Function;
    globalThis.Function = new Proxy(Real, { construct: (target, args) => (built.push(args), Reflect.construct(target, args)) });
    const { z } = await import(${JSON.stringify(specifier)});
    z.object({ name: z.string(), tags: z.array(z.object({ id: z.number() })) }).parse({ name: 'a', tags: [{ id: 1 }] });
    process.stdout.write(JSON.stringify(built));
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('.', import.meta.url)),
    encoding: 'utf8',
  });
  return JSON.parse(out) as string[][];
}

const ZOD_JITLESS = fileURLToPath(new URL('../../packages/contract/src/zod-jitless.ts', import.meta.url));

describe('zod as the browser builds resolve it (contract/src/zod-jitless.ts)', () => {
  it('is what the app build resolves a bare `zod` import to, in pages and workers alike', async () => {
    const config = await resolveConfig(
      { configFile: fileURLToPath(new URL('../../packages/web/vite.config.ts', import.meta.url)) },
      'build',
    );
    const zod = config.resolve.alias.find((alias) => alias.find instanceof RegExp && alias.find.test('zod'));
    expect(zod?.replacement).toBe(ZOD_JITLESS);
    expect(zod?.find instanceof RegExp && zod.find.test('zod/v4')).toBe(false);
  });

  it('builds and parses object schemas without `new Function`, whose probe a CSP without unsafe-eval reports', () => {
    expect(functionsBuiltWith(ZOD_JITLESS)).toEqual([]);
  });

  it('where plain zod probes `new Function` as it builds the first object schema', () => {
    expect(functionsBuiltWith('zod')[0]).toEqual(['']);
  });
});
