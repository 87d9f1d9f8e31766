import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { OpenEntry } from '@lockit/client-core';
import { EntryList } from './entry-list';
import type { RowActions } from './entry-row';

function entry(id: string, name: string): OpenEntry {
  return {
    status: 'open',
    id,
    type: 'login',
    serviceName: name,
    name,
    username: `${name.toLowerCase()}@example.test`,
    url: null,
    urls: [],
    tags: [],
    folderId: null,
    favorite: false,
    hasTotp: false,
    fields: [],
    card: null,
    identity: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    deletedAt: null,
    revision: 1,
    format: 'item',
    sealed: { password: 'sealed', notes: null, details: null, fieldSet: undefined },
    sortKey: name.toLowerCase(),
    searchText: name.toLowerCase(),
  };
}

const actions: RowActions = {
  open: vi.fn(),
  toggleReveal: vi.fn(),
  copy: vi.fn(),
  edit: vi.fn(),
  remove: vi.fn(),
  restore: vi.fn(),
  purge: vi.fn(),
};
const none = new Map();
const list = (entries: OpenEntry[]) => (
  <EntryList entries={entries} revealed={none} copied={none} besideItemView={false} actions={actions} />
);

const [alpha, bravo, charlie, xray, yankee] = [
  entry('a', 'Alpha'),
  entry('b', 'Bravo'),
  entry('c', 'Charlie'),
  entry('x', 'Xray'),
  entry('y', 'Yankee'),
] as const;
const rowAt = (index: number) => document.querySelector(`[role="listitem"][data-index="${index}"]`);

describe('the list’s rows', () => {
  it('are reused when other entries come under the view (a search key), not created anew', () => {
    const view = render(list([alpha, bravo, charlie]));
    const first = rowAt(0);
    view.rerender(list([xray, yankee]));
    expect(rowAt(0)).toBe(first);
    expect(rowAt(0)?.getAttribute('data-entry-id')).toBe('x');
    expect(screen.getByRole('button', { name: 'Edit Xray' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Alpha' })).toBeNull();
  });

  it('keep a focused control with its entry when the list changes under it', () => {
    const view = render(list([alpha, bravo, charlie]));
    screen.getByRole('button', { name: 'Edit Bravo' }).focus();
    // An entry added above elsewhere: the row element that held Bravo now shows Alpha.
    view.rerender(list([xray, alpha, bravo, charlie]));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit Bravo' }));
  });

  it('let the focus leave the list when its entry is no longer listed, never handing it to another', () => {
    const view = render(list([alpha, bravo, charlie]));
    screen.getByRole('button', { name: 'Delete Bravo' }).focus();
    view.rerender(list([alpha, charlie]));
    expect(document.activeElement).toBe(document.body);
  });
});
