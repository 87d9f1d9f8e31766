import { describe, expect, it } from 'vitest';
import { MAX_BODY_NESTING, nestingWithin } from './json-nesting';

const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('nestingWithin', () => {
  it('accepts nesting exactly at the limit and refuses one level more, arrays and objects alike', () => {
    expect(nestingWithin(arrays(MAX_BODY_NESTING), MAX_BODY_NESTING)).toBe(true);
    expect(nestingWithin(objects(MAX_BODY_NESTING), MAX_BODY_NESTING)).toBe(true);
    expect(nestingWithin(arrays(MAX_BODY_NESTING + 1), MAX_BODY_NESTING)).toBe(false);
    expect(nestingWithin(objects(MAX_BODY_NESTING + 1), MAX_BODY_NESTING)).toBe(false);
    expect(nestingWithin(`[{"a":[{"b":${arrays(MAX_BODY_NESTING - 3)}}]}]`, MAX_BODY_NESTING)).toBe(false);
  });

  it('counts depth, not how many arrays and objects there are', () => {
    const wide = `[${Array.from({ length: 1_000 }, () => '{"a":[1,2]}').join(',')}]`;
    expect(nestingWithin(wide, 3)).toBe(true);
    expect(nestingWithin(wide, 2)).toBe(false);
  });

  it('does not count brackets inside strings, escaped quotes and backslashes included', () => {
    expect(nestingWithin(JSON.stringify({ note: '[[[[{{{{' }), 1)).toBe(true);
    expect(nestingWithin(JSON.stringify({ note: 'a "quoted" [[[[' }), 1)).toBe(true);
    expect(nestingWithin(JSON.stringify({ note: 'ends in a backslash \\', next: '[[[[' }), 1)).toBe(true);
    expect(nestingWithin(JSON.stringify({ 'key [[[': ['{{{'] }), 2)).toBe(true);
    expect(nestingWithin(JSON.stringify({ note: 'x\\"' }) + '[[[', 1)).toBe(false);
  });

  it('refuses a body-sized run of brackets (what JSON.parse would spend tens of milliseconds on)', () => {
    expect(nestingWithin(arrays(100_000), MAX_BODY_NESTING)).toBe(false);
    expect(nestingWithin('['.repeat(256 * 1024), MAX_BODY_NESTING)).toBe(false);
  });
});
