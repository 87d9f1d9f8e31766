import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/security.md points at the test that covers each attack by its full name. A renamed or
 * removed test must not leave the table pointing at nothing.
 */
const root = join(import.meta.dirname, '..');
const doc = readFileSync(join(root, 'docs/security.md'), 'utf8');
const references = [...doc.matchAll(/`(e2e\/[\w-]+\.test\.ts)` › ([^›|]+?) › ([^|;]+?)(?= \||;)/g)].map(
  ([, file, suite, test]) => ({ file: file!, suite: suite!.trim(), test: test!.trim() }),
);

describe('the attack table of docs/security.md', () => {
  it('names a test for every attack, 1 to 11', () => {
    const attacks = new Set(references.map(({ test }) => /^attack (\d+)/.exec(test)?.[1]).filter(Boolean));
    expect([...attacks].map(Number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('names only tests that exist, under their suite, in the file it gives', () => {
    expect(references.length).toBeGreaterThanOrEqual(15);
    for (const { file, suite, test } of references) {
      const source = readFileSync(join(root, file), 'utf8');
      expect(source, `${file} › ${suite}`).toContain(`describe('${suite}'`);
      expect(source.includes(`it('${test}'`) || source.includes(`it("${test}"`), `${file} › ${test}`).toBe(true);
    }
  });
});
