import { ENTRY_PLAINTEXT_LIMITS, emptyOverview } from '@lockit/contract';
import { describe, expect, it } from 'vitest';
import { listedOverview } from './listed-overview';

describe('listedOverview', () => {
  it('adds the name and user name to a version 1 overview, as version 2', () => {
    const v1 = { ...emptyOverview('login'), urls: ['https://a.test'] };
    expect(JSON.parse(listedOverview(JSON.stringify(v1), 'Bank', 'ada'))).toEqual({ ...v1, v: 2, name: 'Bank', username: 'ada' });
  });

  it('keeps a version 2 overview, one that does not parse, and one the copies would push past a cap', () => {
    const v2 = JSON.stringify({ ...emptyOverview('login'), v: 2, name: 'Bank', username: 'ada' });
    expect(listedOverview(v2, 'Other', 'x')).toBe(v2);
    expect(listedOverview('{"v":1', 'Bank', 'ada')).toBe('{"v":1');
    const v1 = JSON.stringify(emptyOverview('note'));
    expect(listedOverview(v1, 'x'.repeat(ENTRY_PLAINTEXT_LIMITS.serviceName + 1), '')).toBe(v1);
  });
});
