import { describe, expect, it } from 'vitest';
import { foldName } from './fold-name';

describe('foldName', () => {
  it('folds case and compatibility forms to one key', () => {
    expect(foldName('Alice')).toBe('alice');
    expect(foldName('ＡＬＩＣＥ')).toBe('alice');
    expect(foldName('Mary.Jane@Example.COM')).toBe('mary.jane@example.com');
  });

  it('keeps different names different', () => {
    expect(foldName('alice')).not.toBe(foldName('alice2'));
  });
});
