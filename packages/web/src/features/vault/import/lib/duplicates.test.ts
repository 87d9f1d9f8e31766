import { describe, expect, it } from 'vitest';
import type { OpenEntry } from '@lockit/client-core';
import { duplicateOf, indexExisting, siteHost } from './duplicates';

const entry = (id: string, urls: string[], username: string, extra: Partial<OpenEntry> = {}) =>
  ({ status: 'open', id, type: 'login', urls, username, deletedAt: null, ...extra }) as OpenEntry;

describe('duplicate detection', () => {
  it('compares site hosts without scheme, www or case', () => {
    expect(siteHost('https://WWW.Example.com/login?x=1')).toBe('example.com');
    expect(siteHost('example.com/path')).toBe('example.com');
    expect(siteHost('')).toBe('');
    expect(siteHost('not a url at all')).toBe('');
  });

  it('matches a login of the same site and user name, and nothing else', () => {
    const index = indexExisting([
      entry('a', ['https://github.com'], 'Octo'),
      entry('trashed', ['https://gitlab.com'], 'me', { deletedAt: '2025-01-01T00:00:00.000Z' }),
      entry('note', ['https://bank.com'], 'me', { type: 'note' }),
    ]);
    expect(duplicateOf(index, { type: 'login', urls: ['github.com/login'], username: ' octo ' })?.id).toBe('a');
    expect(duplicateOf(index, { type: 'login', urls: ['https://github.com'], username: 'other' })).toBeNull();
    expect(duplicateOf(index, { type: 'login', urls: ['https://gitlab.com'], username: 'me' })).toBeNull();
    expect(duplicateOf(index, { type: 'login', urls: ['https://bank.com'], username: 'me' })).toBeNull();
    expect(duplicateOf(index, { type: 'note', urls: ['https://github.com'], username: 'octo' })).toBeNull();
    expect(duplicateOf(index, { type: 'login', urls: [], username: 'octo' })).toBeNull();
  });
});
