import { describe, expect, it } from 'vitest';
import { createItemSearch } from './item-search';
import { damagedItem, matchesQuery, type OpenItem, type VaultItem } from './vault-item';

/** An item whose prepared search text counts its reads. */
function counted(id: string, searchText: string, reads: { count: number }): OpenItem {
  const item: OpenItem = {
    status: 'open',
    id,
    serviceName: id,
    username: '',
    url: null,
    createdAt: '',
    revision: 1,
    sealed: { password: 'x', notes: null },
    sortKey: id,
    searchText,
  };
  return Object.defineProperty(item, 'searchText', {
    get: () => {
      reads.count++;
      return searchText;
    },
  });
}

const texts = ['github\nalice\n', 'gitlab\nalice\n', 'mailbox\nbob\n', 'bank\nalice@mail.example\n', 'shop\nbob\nhttps://mail.example'];
const itemsOf = (reads = { count: 0 }): VaultItem[] => [
  damagedItem('damaged'),
  ...texts.map((text, i) => counted(String(i), text, reads)),
];
const ids = (items: readonly VaultItem[]) => items.map((item) => item.id);

describe('createItemSearch', () => {
  it('gives the same matches, in order, as filtering the whole list, whatever is typed', () => {
    const items = itemsOf();
    const search = createItemSearch(items);
    const typed = ['', 'g', 'gi', 'git', 'gith', 'git', 'gi', 'a', 'al', 'ali', 'mail', 'mail.', 'm', '', 'b', 'bo', 'bob', 'zz', 'z', 'x'];
    for (const needle of typed) {
      expect(ids(search(needle)), needle).toEqual(ids(items.filter((item) => matchesQuery(item, needle))));
    }
  });

  it('filters only the matches of the shorter query when a key extends it', () => {
    const reads = { count: 0 };
    const search = createItemSearch(itemsOf(reads));
    expect(ids(search('gi'))).toEqual(['0', '1']);
    reads.count = 0;
    expect(ids(search('git'))).toEqual(['0', '1']);
    expect(ids(search('gitl'))).toEqual(['1']);
    expect(reads.count).toBe(2 + 2);
  });

  it('takes the matches of a prefix typed before back on a backspace, without filtering again', () => {
    const reads = { count: 0 };
    const search = createItemSearch(itemsOf(reads));
    const forGi = search('gi');
    search('git');
    search('gitl');
    reads.count = 0;
    expect(search('gi')).toBe(forGi);
    expect(search('')).toHaveLength(6);
    expect(reads.count).toBe(0);
  });

  it('returns the same array when nothing is filtered out, so the list sees no change', () => {
    const items = itemsOf().filter((item) => item.status === 'open');
    const search = createItemSearch(items);
    expect(search('')).toBe(items);
    expect(search('a')).toBe(items);
    expect(search('al')).not.toBe(items);
  });
});
