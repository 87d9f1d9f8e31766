import { describe, expect, it } from 'vitest';
import { foldForSearch, matchesQuery, queryWords, nameSortKey } from './search-text';

describe('foldForSearch', () => {
  it('drops accents and case', () => {
    expect(foldForSearch('Émoji Bank')).toBe('emoji bank');
    expect(foldForSearch('Crème Brûlée, Ångström, Việt')).toBe('creme brulee, angstrom, viet');
  });

  it('collapses and trims whitespace of any kind', () => {
    expect(foldForSearch('  My \t Bank\n\u00a0Account  ')).toBe('my bank account');
  });

  it('decomposes compatibility forms such as ligatures and full-width letters', () => {
    expect(foldForSearch('ﬁle Ｓｈｏｐ')).toBe('file shop');
  });

  it.each([
    ['Straße', 'strasse'],
    ['GROẞE', 'grosse'],
    ['Æther', 'aether'],
    ['Øresund', 'oresund'],
    ['Œuvre', 'oeuvre'],
    ['Łódź', 'lodz'],
    ['Đorđe', 'dorde'],
    ['Işık', 'isik'],
    ['İstanbul', 'istanbul'],
  ])('spells %s as %s', (text, folded) => {
    expect(foldForSearch(text)).toBe(folded);
  });

  it('keeps marks that are part of a letter outside the Latin, Greek and Cyrillic accents', () => {
    expect(foldForSearch('ガ')).not.toBe(foldForSearch('カ'));
    expect(foldForSearch('कुछ')).toBe('कुछ'.normalize('NFKD'));
  });

  it('leaves emoji whole', () => {
    expect(foldForSearch('🏦 Bank')).toBe('🏦 bank');
  });
});

describe('queryWords', () => {
  it('splits a folded query on spaces and gives none for a blank one', () => {
    expect(queryWords('  Émoji   BANK ')).toEqual(['emoji', 'bank']);
    expect(queryWords(' \t ')).toEqual([]);
  });
});

describe('matchesQuery', () => {
  it('finds accented text from a plain query and the other way round', () => {
    expect(matchesQuery('Émoji Bank', 'emoji')).toBe(true);
    expect(matchesQuery('Emoji Bank', 'émoji')).toBe(true);
    expect(matchesQuery('Straße 5', 'strasse')).toBe(true);
    expect(matchesQuery('Strasse 5', 'straße')).toBe(true);
  });

  it('needs every word, in any order, anywhere', () => {
    expect(matchesQuery('Work bank alice@mail.example', 'alice bank')).toBe(true);
    expect(matchesQuery('Work bank alice@mail.example', 'alice shop')).toBe(false);
  });

  it('matches parts of words', () => {
    expect(matchesQuery('https://github.com/login', 'hub.co')).toBe(true);
  });

  it('matches everything with a blank query', () => {
    expect(matchesQuery('anything', '   ')).toBe(true);
    expect(matchesQuery('', '')).toBe(true);
  });
});

describe('nameSortKey', () => {
  const byKey = (names: string[]) => [...names].sort((a, b) => (nameSortKey(a) < nameSortKey(b) ? -1 : 1));

  it('orders as a base, numeric collation does: no case, no accents, numbers by value, digits before letters', () => {
    expect(byKey(['delta', 'Item 10', 'Čaj', 'Bravo', 'Item 2', 'alpha', '7 Eleven', 'item 002b'])).toEqual([
      '7 Eleven',
      'alpha',
      'Bravo',
      'Čaj',
      'delta',
      'Item 2',
      'item 002b',
      'Item 10',
    ]);
  });

  it('gives names that differ only in case, accents or leading zeros the same key', () => {
    expect(nameSortKey('Émoji Bank')).toBe(nameSortKey('emoji bank'));
    expect(nameSortKey('Item 007')).toBe(nameSortKey('item 7'));
    expect(nameSortKey('0')).toBe(nameSortKey('000'));
  });
});
