import { describe, expect, it } from 'vitest';
import { compareItems, damagedItem, matchesQuery, normaliseQuery, type OpenItem } from './vault-item';

const open = (serviceName: string, createdAt: string, id: string): OpenItem => ({
  status: 'open',
  id,
  serviceName,
  username: 'u',
  url: null,
  createdAt,
  revision: 1,
  sealed: { password: 'x', notes: null },
  sortKey: serviceName.toLowerCase(),
  searchText: `${serviceName.toLowerCase()}\nu\n`,
});

describe('compareItems', () => {
  it('orders by service name ignoring case, then creation time, then id; damaged entries first', () => {
    const items = [
      open('b', '2025-01-01', '1'),
      open('A', '2025-01-03', '2'),
      open('a', '2025-01-02', '4'),
      open('a', '2025-01-02', '3'),
      damagedItem('9', '2025-01-05'),
    ];
    expect(items.sort(compareItems).map((item) => item.id)).toEqual(['9', '3', '4', '2', '1']);
  });
});

describe('search', () => {
  it('matches a trimmed, lowercased query anywhere in the prepared text; never across fields', () => {
    const item = open('GitHub', '', '1');
    expect(matchesQuery(item, normaliseQuery('  HUB '))).toBe(true);
    expect(matchesQuery(item, normaliseQuery(''))).toBe(true);
    expect(matchesQuery(item, normaliseQuery('hubu'))).toBe(false);
    expect(matchesQuery(damagedItem('2'), 'a')).toBe(false);
  });
});
