import type { OpenEntry } from '@lockit/client-core';
import { describe, expect, it } from 'vitest';
import { inNameOrder, itemSummaries } from './item-summaries';

function entry(name: string, type: 'login' | 'card' | 'note' = 'login'): OpenEntry {
  return {
    id: `id-${name}`,
    type,
    name,
    username: `${name.toLowerCase()}-user`,
    urls: [],
    url: null,
    hasTotp: false,
    sortKey: name.toLowerCase(),
    searchText: `${name.toLowerCase()}\n${name.toLowerCase()}-user`,
  } as unknown as OpenEntry;
}

const names = (summaries: { name: string }[]) => summaries.map((summary) => summary.name);

describe('itemSummaries (the popup’s list)', () => {
  const vault = ['delta', 'Alpha', 'charlie', 'Bravo', 'echo'].map((name) => entry(name));
  const none = { query: '', forTab: new Set<OpenEntry>(), pageUrl: null };

  it('lists every match by name, the tab’s site’s logins first', () => {
    expect(names(itemSummaries(vault, none))).toEqual(['Alpha', 'Bravo', 'charlie', 'delta', 'echo']);
    const forTab = new Set([vault[4]!, vault[0]!]);
    const listed = itemSummaries(vault, { ...none, forTab, pageUrl: 'https://echo.test/' });
    expect(names(listed)).toEqual(['delta', 'echo', 'Alpha', 'Bravo', 'charlie']);
    expect(listed.map((item) => item.matchesTab)).toEqual([true, true, false, false, false]);
    expect(listed.map((item) => item.canFill)).toEqual([true, true, false, false, false]);
    expect(names(itemSummaries(vault, { ...none, query: 'char' }))).toEqual(['charlie']);
  });

  it('answers a first page only when asked for one, in the same order', () => {
    const forTab = new Set([vault[4]!]);
    const whole = itemSummaries(vault, { ...none, forTab, pageUrl: 'https://echo.test/' });
    expect(itemSummaries(vault, { ...none, forTab, pageUrl: 'https://echo.test/', limit: 2 })).toEqual(whole.slice(0, 2));
    expect(itemSummaries(vault, { ...none, limit: 50 })).toHaveLength(vault.length);
  });

  it('offers a card to any https page, never to an http one, and never lists it as the site’s', () => {
    const card = entry('Visa', 'card');
    const [https] = itemSummaries([card], { ...none, pageUrl: 'https://shop.test/' });
    expect(https).toMatchObject({ canFill: true, matchesTab: false });
    expect(itemSummaries([card], { ...none, pageUrl: 'http://shop.test/' })[0]).toMatchObject({ canFill: false });
  });

  it('sorts one list of entries once, while it is the one the session holds', () => {
    const sorted = inNameOrder(vault);
    expect(inNameOrder(vault)).toBe(sorted);
    expect(inNameOrder([...vault])).not.toBe(sorted);
    expect(names(vault)).toEqual(['delta', 'Alpha', 'charlie', 'Bravo', 'echo']);
  });
});
