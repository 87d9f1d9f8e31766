import { describe, expect, it } from 'vitest';
import { compareEntries, damagedEntry, matchesQuery, normaliseQuery, type OpenEntry } from './vault-entry';

const open = (serviceName: string, createdAt: string, id: string): OpenEntry => ({
  status: 'open',
  id,
  type: 'login',
  serviceName,
  name: serviceName,
  username: 'u',
  url: null,
  urls: [],
  tags: [],
  folderId: null,
  favorite: false,
  hasTotp: false,
  fields: [],
  card: null,
  identity: null,
  createdAt,
  updatedAt: createdAt,
  deletedAt: null,
  revision: 1,
  format: 'item',
  sealed: { password: 'x', notes: null, details: null, fieldSet: ['serviceName', 'username', 'password', 'overview'] },
  sortKey: serviceName.toLowerCase(),
  searchText: `${serviceName.toLowerCase()}\nu`,
});

describe('compareEntries', () => {
  it('orders by service name ignoring case, then creation time, then id; damaged entries first', () => {
    const entries = [
      open('b', '2025-01-01', '1'),
      open('A', '2025-01-03', '2'),
      open('a', '2025-01-02', '4'),
      open('a', '2025-01-02', '3'),
      damagedEntry('9', '2025-01-05'),
    ];
    expect(entries.sort(compareEntries).map((entry) => entry.id)).toEqual(['9', '3', '4', '2', '1']);
  });
});

describe('search', () => {
  it('matches a trimmed, lowercased query anywhere in the prepared text; never across fields', () => {
    const entry = open('GitHub', '', '1');
    expect(matchesQuery(entry, normaliseQuery('  HUB '))).toBe(true);
    expect(matchesQuery(entry, normaliseQuery(''))).toBe(true);
    expect(matchesQuery(entry, normaliseQuery('hubu'))).toBe(false);
    expect(matchesQuery(damagedEntry('2'), 'a')).toBe(false);
  });

  it('folds the query as search texts are folded: accents, case and spacing do not matter', () => {
    expect(normaliseQuery('  ÉTÉ   Straße ')).toBe('ete strasse');
  });
});
