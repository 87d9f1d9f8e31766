import { describe, expect, it } from 'vitest';
import { MAX_CHANGE_CURSOR, parseChangeCursor } from './vault-changes';

describe('the list answer’s change cursor header', () => {
  it('reads a cursor as the changes query takes it', () => {
    expect(parseChangeCursor('0')).toBe(0);
    expect(parseChangeCursor('42')).toBe(42);
    expect(parseChangeCursor(String(MAX_CHANGE_CURSOR))).toBe(MAX_CHANGE_CURSOR);
  });

  it('answers null, never a number, for a header that is absent or not a cursor', () => {
    for (const value of [null, undefined, '', '-1', '01', '1.5', '1e3', ' 7', 'seven', String(MAX_CHANGE_CURSOR + 1)])
      expect(parseChangeCursor(value)).toBeNull();
  });
});
