import { describe, expect, it } from 'vitest';
import { forgetUsed, LAST_USED_LIMIT, noteUsed, readLastUsed } from './last-used';

describe('last used times', () => {
  it('are kept per account (ignoring case) and read back', () => {
    const times = noteUsed('Alice', 'entry-1', {}, 1_000);
    expect(times).toEqual({ 'entry-1': 1_000 });
    expect(readLastUsed('alice')).toEqual({ 'entry-1': 1_000 });
    expect(readLastUsed('bob')).toEqual({});
  });

  it('read anything unreadable as empty, and skip values that are not times', () => {
    window.localStorage.setItem('lockit.lastUsed.alice', 'not json');
    expect(readLastUsed('alice')).toEqual({});
    window.localStorage.setItem('lockit.lastUsed.alice', JSON.stringify({ a: 5, b: 'x', c: null }));
    expect(readLastUsed('alice')).toEqual({ a: 5 });
    window.localStorage.setItem('lockit.lastUsed.alice', '[1, 2]');
    expect(readLastUsed('alice')).toEqual({});
  });

  it('forget an entry deleted for good', () => {
    const times = noteUsed('alice', 'b', noteUsed('alice', 'a', {}, 1), 2);
    expect(forgetUsed('alice', 'a', times)).toEqual({ b: 2 });
    expect(readLastUsed('alice')).toEqual({ b: 2 });
  });

  it(`keep the newest ${LAST_USED_LIMIT.toLocaleString()} uses`, () => {
    const many = Object.fromEntries(Array.from({ length: LAST_USED_LIMIT }, (_, i) => [`e${i}`, i + 10]));
    const times = noteUsed('alice', 'newest', many, 1e9);
    expect(Object.keys(times)).toHaveLength(LAST_USED_LIMIT);
    expect(times.newest).toBe(1e9);
    expect(times.e0).toBeUndefined();
  });
});
