import { overviewDocumentSchema } from '@lockit/contract';
import { describe, expect, it } from 'vitest';
import { changedParts, mergeDrafts, partText } from './draft-diff';
import { emptyDraft } from './entry-drafts';
import { entryPlaintext } from './entry-plaintext';
import { draftOf } from './open-draft';
import type { EntryDraft, OpenEntry } from './vault-entry';

const login: EntryDraft = {
  ...emptyDraft('login'),
  serviceName: 'Bank',
  username: 'alice',
  password: 'pw',
  urls: ['  https://bank.example/login ', 'https://bank.example', ''],
  urlRules: { '  https://bank.example/login ': 'exact', 'https://gone.example': 'never' },
};

describe('match rules per web address', () => {
  it('are saved in the overview by the address as saved, only for addresses the item still has', () => {
    const { overview } = entryPlaintext(login);
    expect(overview.urlRules).toEqual({ 'https://bank.example/login': 'exact' });
    expect(overviewDocumentSchema.parse(overview).urlRules).toEqual({ 'https://bank.example/login': 'exact' });
  });

  it('leave an item without rules stored exactly as before rules existed (no urlRules key)', () => {
    const { overview } = entryPlaintext({ ...login, urlRules: {} });
    expect('urlRules' in overview).toBe(false);
    expect('urlRules' in entryPlaintext({ ...emptyDraft('card'), serviceName: 'Visa', urlRules: { x: 'exact' } }).overview).toBe(
      false,
    );
  });

  it('are refused by the overview schema for an address the item does not hold, or a rule it does not know', () => {
    const { overview } = entryPlaintext(login);
    expect(overviewDocumentSchema.safeParse({ ...overview, urlRules: { 'https://other.example': 'exact' } }).success).toBe(false);
    expect(overviewDocumentSchema.safeParse({ ...overview, urlRules: { 'https://bank.example': 'prefix' } }).success).toBe(false);
  });

  it('come back in the editor with the item, and a changed rule is a changed URLs part that merges with its addresses', () => {
    const { overview } = entryPlaintext(login);
    const entry = { ...overview, serviceName: 'Bank', username: 'alice', urlRules: overview.urlRules } as unknown as OpenEntry;
    const opened = draftOf(entry, {
      password: 'pw',
      notes: '',
      totp: null,
      hidden: {},
      card: null,
      identity: null,
      sshKey: null,
    });
    expect(opened.urlRules).toEqual({ 'https://bank.example/login': 'exact' });

    const theirs: EntryDraft = { ...opened, urlRules: { 'https://bank.example/login': 'starts-with' } };
    expect(changedParts(opened, theirs)).toEqual(['urls']);
    expect(partText(theirs, 'urls')).toBe('https://bank.example/login (match: starts with)\nhttps://bank.example');
    expect(mergeDrafts(opened, theirs, { urls: 'theirs' }).urlRules).toEqual({ 'https://bank.example/login': 'starts-with' });
    expect(mergeDrafts(opened, theirs, {}).urlRules).toEqual({ 'https://bank.example/login': 'exact' });
  });
});
