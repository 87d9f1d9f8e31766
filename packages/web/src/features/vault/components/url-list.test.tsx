import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { emptyDraft } from '@lockit/client-core';
import type { EntryDraft } from '@lockit/client-core';
import { EntryFormDialog } from './entry-form-dialog';

function renderLogin(initial: EntryDraft) {
  const user = userEvent.setup();
  const onSubmit = vi.fn(async (_draft: EntryDraft) => ({ ok: true }) as const);
  render(<EntryFormDialog mode="edit" initial={initial} onSubmit={onSubmit} onClose={vi.fn()} folders={[]} />);
  return { user, dialog: screen.getByRole('dialog'), submitted: () => onSubmit.mock.calls.at(-1)?.[0] };
}

const bank: EntryDraft = {
  ...emptyDraft('login'),
  serviceName: 'Bank',
  username: 'alice',
  password: 'pw',
  urls: ['https://old.bank.example', 'https://bank.example/login'],
  urlRules: { 'https://old.bank.example': 'never' },
};

describe('the item editor sets a match rule per web address', () => {
  it('shows each address with its rule, "Extension default" where it has none, and the address fields keep their own labels', () => {
    const { dialog } = renderLogin(bank);
    expect(within(dialog).getByRole('combobox', { name: 'Match for address 1' })).toHaveValue('never');
    expect(within(dialog).getByRole('combobox', { name: 'Match for address 2' })).toHaveValue('');
    expect(within(dialog).getAllByRole('option', { name: 'Extension default' })).toHaveLength(2);
    expect(within(dialog).getAllByLabelText(/URL \(optional\)|URL 2/)).toHaveLength(2);
  });

  it('saves a chosen rule with its address, and the rule follows the address when a row above it is removed', async () => {
    const { user, dialog, submitted } = renderLogin(bank);
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Match for address 2' }), 'Exact');
    await user.click(within(dialog).getByRole('button', { name: 'Remove URL (optional)' }));
    expect(within(dialog).getByRole('combobox', { name: 'Match for address 1' })).toHaveValue('exact');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(submitted()?.urls).toEqual(['https://bank.example/login']);
    expect(submitted()?.urlRules).toEqual({ 'https://bank.example/login': 'exact' });
  });

  it('keeps the rule of an address whose text is edited', async () => {
    const { user, dialog, submitted } = renderLogin(bank);
    const first = within(dialog).getByRole('textbox', { name: 'URL (optional)' });
    await user.type(first, '/signin');
    expect(within(dialog).getByRole('combobox', { name: 'Match for address 1' })).toHaveValue('never');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(submitted()?.urlRules).toEqual({ 'https://old.bank.example/signin': 'never' });
  });
});
