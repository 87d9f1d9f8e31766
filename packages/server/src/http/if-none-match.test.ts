import { describe, expect, it } from 'vitest';
import { ifNoneMatchHits } from './if-none-match';

describe('If-None-Match', () => {
  it('hits on the same tag, alone, in a list, weak or with spaces', () => {
    expect(ifNoneMatchHits('"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHits('"x", "abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHits('W/"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHits(' "x" ,W/"abc" ', '"abc"')).toBe(true);
    expect(ifNoneMatchHits('*', '"abc"')).toBe(true);
  });

  it('misses without the header, on another tag, or on the tag without quotes', () => {
    expect(ifNoneMatchHits(undefined, '"abc"')).toBe(false);
    expect(ifNoneMatchHits('', '"abc"')).toBe(false);
    expect(ifNoneMatchHits('"abd"', '"abc"')).toBe(false);
    expect(ifNoneMatchHits('abc', '"abc"')).toBe(false);
    expect(ifNoneMatchHits('"abc', '"abc"')).toBe(false);
  });
});
