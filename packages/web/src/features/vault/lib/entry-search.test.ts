import { describe, expect, it } from 'vitest';
import { createEntrySearch } from './entry-search';
import { damagedEntry, matchesQuery, type OpenEntry, type VaultEntry } from './vault-entry';

/** An entry whose prepared search text counts its reads. */
function counted(id: string, searchText: string, reads: { count: number }): OpenEntry {
  // Only what search reads; the rest of an open entry plays no part here.
  const entry = {
    status: 'open',
    id,
    serviceName: id,
    username: '',
    url: null,
    createdAt: '',
    revision: 1,
    sealed: { password: 'x', notes: null, details: null, fieldSet: undefined },
    sortKey: id,
    searchText,
  } as OpenEntry;
  return Object.defineProperty(entry, 'searchText', {
    get: () => {
      reads.count++;
      return searchText;
    },
  });
}

const texts = [
  'github\nalice\n',
  'gitlab\nalice\n',
  'mailbox\nbob\n',
  'bank\nalice@mail.example\n',
  'shop\nbob\nhttps://mail.example',
];
const entriesOf = (reads = { count: 0 }): VaultEntry[] => [
  damagedEntry('damaged'),
  ...texts.map((text, i) => counted(String(i), text, reads)),
];
const ids = (entries: readonly VaultEntry[]) => entries.map((entry) => entry.id);

describe('createEntrySearch', () => {
  it('gives the same matches, in order, as filtering the whole list, whatever is typed', () => {
    const entries = entriesOf();
    const search = createEntrySearch(entries);
    const typed = [
      '',
      'g',
      'gi',
      'git',
      'gith',
      'git',
      'gi',
      'a',
      'al',
      'ali',
      'mail',
      'mail.',
      'm',
      '',
      'b',
      'bo',
      'bob',
      'zz',
      'z',
      'x',
    ];
    for (const needle of typed) {
      expect(ids(search(needle)), needle).toEqual(ids(entries.filter((entry) => matchesQuery(entry, needle))));
    }
  });

  it('filters only the matches of the shorter query when a key extends it', () => {
    const reads = { count: 0 };
    const search = createEntrySearch(entriesOf(reads));
    expect(ids(search('gi'))).toEqual(['0', '1']);
    reads.count = 0;
    expect(ids(search('git'))).toEqual(['0', '1']);
    expect(ids(search('gitl'))).toEqual(['1']);
    expect(reads.count).toBe(2 + 2);
  });

  it('takes the matches of a prefix typed before back on a backspace, without filtering again', () => {
    const reads = { count: 0 };
    const search = createEntrySearch(entriesOf(reads));
    const forGi = search('gi');
    search('git');
    search('gitl');
    reads.count = 0;
    expect(search('gi')).toBe(forGi);
    expect(search('')).toHaveLength(6);
    expect(reads.count).toBe(0);
  });

  it('returns the same array when nothing is filtered out, so the list sees no change', () => {
    const entries = entriesOf().filter((entry) => entry.status === 'open');
    const search = createEntrySearch(entries);
    expect(search('')).toBe(entries);
    expect(search('a')).toBe(entries);
    expect(search('al')).not.toBe(entries);
  });
});
