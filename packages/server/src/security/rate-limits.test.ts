import { describe, expect, it } from 'vitest';
import { describeWait, tooMany } from './rate-limits';

describe('429 wording', () => {
  it('says seconds under a minute and whole minutes (rounded up) above', () => {
    expect(describeWait(1)).toBe('1 second');
    expect(describeWait(45)).toBe('45 seconds');
    expect(describeWait(60)).toBe('1 minute');
    expect(describeWait(61)).toBe('2 minutes');
    expect(describeWait(300)).toBe('5 minutes');
  });

  it('sets Retry-After in whole seconds, at least 1', () => {
    const error = tooMany(4_200);
    expect(error.statusCode).toBe(429);
    expect(error.options.headers).toEqual({ 'retry-after': '5' });
    expect(error.message).toBe('Too many attempts. Try again in 5 seconds.');
    expect(tooMany(0).options.headers).toEqual({ 'retry-after': '1' });
    expect(tooMany(300_000).message).toBe('Too many attempts. Try again in 5 minutes.');
  });
});
