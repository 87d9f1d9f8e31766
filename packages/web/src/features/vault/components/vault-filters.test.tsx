import { apiPaths } from '@lockit/contract';
import { newEntryId } from '@lockit/crypto';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, routePrefix, signedInRoutes, type FakeRoute } from '@/testing/fake-api';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import {
  fakeEntryRoutes,
  listedNames,
  sealedEntry,
  sealedFolder,
  unlockedKeyring,
  type PlainEntry,
} from '@/testing/vault-fixtures';
import { VaultPage } from './vault-page';

const routes = pageRoutes({ '/vault': <VaultPage /> });

const WORK = newEntryId();
const BANKING = newEntryId();
const PERSONAL = newEntryId();

const login = (serviceName: string, more: Partial<PlainEntry> = {}): PlainEntry => ({
  serviceName,
  username: 'alice',
  password: 'pw',
  ...more,
});

/** A vault of every type, with folders ("Work", "Work/Banking", "Personal"), tags and one entry in Trash. */
async function openVault(overrides: Record<string, FakeRoute> = {}) {
  const { keyring, vault } = await unlockedKeyring();
  const key = vault.vaultKey;
  const entries = [
    await sealedEntry(key, login('GitHub', { favorite: true, tags: ['work', 'dev'], folderId: WORK, url: 'https://github.com' })),
    await sealedEntry(key, login('Émoji Bank', { tags: ['finance'], folderId: BANKING })),
    await sealedEntry(key, { serviceName: 'Wifi', username: '', password: '', type: 'note', notes: 'The code is on the router' }),
    await sealedEntry(key, {
      serviceName: 'Visa',
      username: '',
      password: '',
      type: 'card',
      card: { holder: 'Alice', brand: 'Visa', last4: '4242', expMonth: '12', expYear: '2030' },
    }),
    await sealedEntry(key, {
      serviceName: 'Me',
      username: '',
      password: '',
      type: 'identity',
      identity: {
        title: '',
        firstName: 'Alice',
        middleName: '',
        lastName: 'Liddell',
        email: 'alice@example.com',
        phone: '',
        company: '',
        address1: '',
        address2: '',
        city: '',
        state: '',
        postalCode: '',
        country: '',
      },
    }),
    await sealedEntry(key, login('Old forum'), { deletedAt: '2025-01-01T00:00:00.000Z', revision: 2 }),
  ];
  const folders = [
    await sealedFolder(key, 'Work', { id: WORK }),
    await sealedFolder(key, 'Work/Banking', { id: BANKING }),
    await sealedFolder(key, 'Personal', { id: PERSONAL }),
  ];
  const server = fakeEntryRoutes(entries, overrides, folders);
  const api = fakeApi({ ...signedInRoutes(), ...server.routes });
  const app = renderApp('/vault', { routes, keyring });
  await screen.findByRole('listitem', { name: 'GitHub' });
  const filters = screen.getByRole('navigation', { name: 'Filters' });
  return { app, api, server, entries, filters };
}

const countText = () => screen.getByText(/^\d+ (entry|entries)$/).textContent;

describe('Vault filters', () => {
  it('lists All, Favourites, each type, the folder tree, the tags and Trash, each with its count', async () => {
    const { filters } = await openVault();
    const buttons = within(filters).getAllByRole('button');
    // Each folder's "…" menu (Rename, Delete) is checked in folder-actions.test.tsx.
    expect(buttons.filter((button) => button.getAttribute('aria-label')?.startsWith('Folder actions')).length).toBe(3);
    const names = buttons
      .filter((button) => !button.getAttribute('aria-label')?.startsWith('Folder actions'))
      .map((button) => button.textContent);
    expect(names).toEqual([
      'All entries 5',
      'Favourites 1',
      'Logins 2',
      'Secure notes 1',
      'Cards 1',
      'Identities 1',
      'New folder',
      'Personal 0',
      // "Work" counts its subfolder's entry too.
      'Work 2',
      'Banking 1',
      'No folder 3',
      '#dev 1',
      '#finance 1',
      '#work 1',
      'Trash 1',
    ]);
    // Banking sits inside Work.
    const work = within(filters).getByRole('list', { name: 'Folders in Work' });
    expect(within(work).getByRole('button', { name: 'Banking 1' })).toBeInTheDocument();
    expect(within(filters).getByRole('button', { name: 'All entries 5' })).toHaveAttribute('aria-current', 'true');
    expect(countText()).toBe('5 entries');
    expect(screen.getByRole('heading', { name: 'All entries' })).toBeInTheDocument();
    expect(listedNames()).toEqual(['Émoji Bank', 'GitHub', 'Me', 'Visa', 'Wifi']);
  });

  it.each([
    ['Favourites 1', 'Favourites', ['GitHub']],
    ['Logins 2', 'Logins', ['Émoji Bank', 'GitHub']],
    ['Secure notes 1', 'Secure notes', ['Wifi']],
    ['Cards 1', 'Cards', ['Visa']],
    ['Identities 1', 'Identities', ['Me']],
    ['Work 2', 'Work', ['Émoji Bank', 'GitHub']],
    ['Banking 1', 'Work/Banking', ['Émoji Bank']],
    ['No folder 3', 'No folder', ['Me', 'Visa', 'Wifi']],
    ['#finance 1', '#finance', ['Émoji Bank']],
    ['#work 1', '#work', ['GitHub']],
    ['Trash 1', 'Trash', ['Old forum']],
  ])('%s lists just its entries, under its heading, with their count', async (button, heading, names) => {
    const { app, filters } = await openVault();
    await app.user.click(within(filters).getByRole('button', { name: button }));
    expect(within(filters).getByRole('button', { name: button })).toHaveAttribute('aria-current', 'true');
    expect(screen.getByRole('heading', { name: heading })).toBeInTheDocument();
    expect(listedNames()).toEqual(names);
    expect(countText()).toBe(`${names.length} ${names.length === 1 ? 'entry' : 'entries'}`);
  });

  it('shows a folder with no entries as empty, not as a match failure', async () => {
    const { app, filters } = await openVault();
    await app.user.click(within(filters).getByRole('button', { name: 'Personal 0' }));
    expect(screen.getByText('No entries here.')).toBeInTheDocument();
    expect(countText()).toBe('0 entries');
    expect(screen.queryByRole('list', { name: 'Saved passwords' })).not.toBeInTheDocument();
  });

  it('Trash rows offer Restore and Delete forever instead of Edit and Delete; Restore brings the entry back', async () => {
    const { app, api, entries, filters } = await openVault();
    await app.user.click(within(filters).getByRole('button', { name: 'Trash 1' }));
    const row = screen.getByRole('listitem', { name: 'Old forum' });
    expect(
      within(row)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label') ?? button.textContent),
    ).toEqual(['Old forum', 'Restore Old forum', 'Delete Old forum forever']);

    await app.user.click(within(row).getByRole('button', { name: 'Restore Old forum' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Old forum' })).not.toBeInTheDocument());
    const [restore] = api.to('POST', apiPaths.restoreEntry(entries[5]!.id));
    expect(restore!.body).toEqual({ revision: 2 });
    expect(screen.getByText('Trash is empty.')).toBeInTheDocument();
    expect(within(filters).getByRole('button', { name: 'Trash 0' })).toBeInTheDocument();
    await app.user.click(within(filters).getByRole('button', { name: 'All entries 6' }));
    expect(listedNames()).toContain('Old forum');
  });

  it('Delete moves an entry to Trash after the confirmation; Delete forever asks again, then purges it', async () => {
    const { app, api, entries, filters } = await openVault();
    await app.user.click(screen.getByRole('button', { name: 'Delete GitHub' }));
    const confirm = screen.getByRole('dialog', { name: 'Delete Password' });
    expect(within(confirm).getByText('Are you sure you want to delete this password?')).toBeInTheDocument();
    await app.user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'GitHub' })).not.toBeInTheDocument());
    expect(api.to('DELETE', apiPaths.deleteEntry(entries[0]!.id))[0]!.query.get('revision')).toBe('1');

    await app.user.click(within(filters).getByRole('button', { name: 'Trash 2' }));
    expect(listedNames()).toEqual(['GitHub', 'Old forum']);
    await app.user.click(screen.getByRole('button', { name: 'Delete GitHub forever' }));
    const forever = screen.getByRole('dialog', { name: 'Delete Forever' });
    expect(within(forever).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    expect(api.requests.filter((request) => request.path.startsWith(apiPaths.purgeEntry('')))).toHaveLength(0);
    await app.user.click(within(forever).getByRole('button', { name: 'Delete forever' }));
    await waitFor(() => expect(listedNames()).toEqual(['Old forum']));
    expect(api.to('DELETE', apiPaths.purgeEntry(entries[0]!.id))[0]!.query.get('revision')).toBe('2');
    expect(within(filters).getByRole('button', { name: 'Trash 1' })).toBeInTheDocument();
  });

  it('shows a failed restore as a plain message, not an alert, and keeps the entry in Trash', async () => {
    const { app, filters } = await openVault({ [routePrefix('POST', apiPaths.restoreEntry(''))]: 'network-error' });
    await app.user.click(within(filters).getByRole('button', { name: 'Trash 1' }));
    await app.user.click(screen.getByRole('button', { name: 'Restore Old forum' }));
    expect(await screen.findByText(/^Could not restore it: you are offline/)).toBeInTheDocument();
    expect(screen.getByText(/^Could not restore it/).closest('[role="status"]')).not.toBeNull();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(listedNames()).toEqual(['Old forum']);
    await app.user.click(screen.getByRole('button', { name: 'Dismiss message' }));
    expect(screen.queryByText(/^Could not restore it/)).not.toBeInTheDocument();
  });

  it('creates a folder from the column; a slash nests it', async () => {
    const { app, api, filters } = await openVault();
    await app.user.click(within(filters).getByRole('button', { name: 'New folder' }));
    const dialog = screen.getByRole('dialog', { name: 'New Folder' });
    await app.user.type(within(dialog).getByLabelText('Folder name'), 'Personal/Travel');
    await app.user.click(within(dialog).getByRole('button', { name: 'Create' }));
    const personal = await within(filters).findByRole('list', { name: 'Folders in Personal' });
    expect(within(personal).getByRole('button', { name: 'Travel 0' })).toBeInTheDocument();
    expect(JSON.stringify(api.to('POST', apiPaths.folders)[0]!.body)).not.toContain('Travel');
  });
});

describe('Vault list: sort and search', () => {
  it('sorts by name, by last edited (newest first) and by last used on this device', async () => {
    const { app } = await openVault();
    const sort = screen.getByRole('combobox', { name: 'Sort by' });
    expect(sort).toHaveValue('name');

    // Sealed in this order, so edited last to first: Me, Visa, Wifi, Émoji Bank, GitHub.
    await app.user.selectOptions(sort, 'Last edited');
    expect(listedNames()).toEqual(['Me', 'Visa', 'Wifi', 'Émoji Bank', 'GitHub']);

    await app.user.selectOptions(sort, 'Last used');
    // Nothing used yet: by name.
    expect(listedNames()).toEqual(['Émoji Bank', 'GitHub', 'Me', 'Visa', 'Wifi']);
    await app.user.click(screen.getByRole('button', { name: 'Copy user name for GitHub' }));
    await waitFor(() => expect(listedNames()[0]).toBe('GitHub'));
    expect(JSON.parse(window.localStorage.getItem('lockit.lastUsed.alice') ?? '{}')).toEqual({
      [screen.getByRole('listitem', { name: 'GitHub' }).dataset.entryId!]: expect.any(Number),
    });

    await app.user.selectOptions(sort, 'Name');
    expect(listedNames()).toEqual(['Émoji Bank', 'GitHub', 'Me', 'Visa', 'Wifi']);
  });

  it.each([
    ['a tag', 'finance', ['Émoji Bank']],
    ['a folder name', 'banking', ['Émoji Bank']],
    ['a parent folder name', 'work', ['Émoji Bank', 'GitHub']],
    ['a word without its accent', 'emoji', ['Émoji Bank']],
    ['several words in any order', 'bank emoji', ['Émoji Bank']],
    ['a web address', 'github.com', ['GitHub']],
  ])('finds entries by %s', async (_what, query, names) => {
    const { app } = await openVault();
    await app.user.type(screen.getByRole('searchbox', { name: 'Search' }), query);
    expect(listedNames()).toEqual(names);
    expect(countText()).toBe(`${names.length} ${names.length === 1 ? 'entry' : 'entries'}`);
  });

  it('searches within the chosen filter', async () => {
    const { app, filters } = await openVault();
    await app.user.click(within(filters).getByRole('button', { name: 'Trash 1' }));
    await app.user.type(screen.getByRole('searchbox', { name: 'Search' }), 'github');
    expect(screen.getByText('No passwords match your search.')).toBeInTheDocument();
  });
});

describe('Vault filters on a phone', () => {
  it('hides the column behind a Filters button; the drawer takes focus and closes on a choice or Escape', async () => {
    const { app, filters } = await openVault();
    const open = screen.getByRole('button', { name: 'Filters' });
    // Below 768 px the column is hidden (md:block shows it on wider screens) and the button shown.
    expect(open).toHaveClass('md:hidden');
    expect(open).toHaveAttribute('aria-expanded', 'false');
    expect(filters).toHaveClass('hidden', 'md:block');

    await app.user.click(open);
    expect(open).toHaveAttribute('aria-expanded', 'true');
    expect(filters).not.toHaveClass('hidden');
    expect(filters).toHaveClass('fixed');
    expect(within(filters).getByRole('button', { name: 'All entries 5' })).toHaveFocus();
    await app.user.click(within(filters).getByRole('button', { name: 'Cards 1' }));
    expect(filters).toHaveClass('hidden');
    expect(open).toHaveAttribute('aria-expanded', 'false');
    expect(listedNames()).toEqual(['Visa']);

    await app.user.click(open);
    await app.user.keyboard('{Escape}');
    expect(filters).toHaveClass('hidden');
  });
});
