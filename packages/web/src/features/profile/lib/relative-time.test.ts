import { describe, expect, it } from 'vitest';
import { relativeTime } from './relative-time';

describe('relativeTime', () => {
  const now = new Date('2026-11-24T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it('says "just now" under a minute: last use is written at most once a minute', () => {
    expect(relativeTime(ago(59_000), now, 'en')).toBe('just now');
  });

  it('counts in the largest whole unit', () => {
    expect(relativeTime(ago(5 * 60_000), now, 'en')).toBe('5 minutes ago');
    expect(relativeTime(ago(2 * 3_600_000 + 59 * 60_000), now, 'en')).toBe('2 hours ago');
    expect(relativeTime(ago(26 * 3_600_000), now, 'en')).toBe('yesterday');
    expect(relativeTime(ago(3 * 7 * 86_400_000), now, 'en')).toBe('3 weeks ago');
  });
});
