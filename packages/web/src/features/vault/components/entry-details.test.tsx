import { apiPaths } from '@lockit/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, signedInRoutes } from '@/testing/fake-api';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { advance, installFakeClockWithRealTime } from '@/testing/timers';
import {
  fakeEntryRoutes,
  listedNames,
  sealedEntry,
  sealedFolder,
  unlockedKeyring,
  type PlainEntry,
} from '@/testing/vault-fixtures';
import { COPY_CHECK_MS } from '../hooks/use-copy-feedback';
import { DEFAULT_CLIPBOARD_CLEAR_MS } from '@/lib/clipboard';
import { VaultPage } from './vault-page';

const routes = pageRoutes({ '/vault': <VaultPage /> });

/** RFC 6238's SHA-1 seed ("12345678901234567890") with eight digits: 89005924 at 1234567890 s. */
const RFC_SEED = 'otpauth://totp/Example:alice?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&digits=8';
const RFC_TIME_MS = 1_234_567_890_000;

const GITHUB: PlainEntry = {
  serviceName: 'GitHub',
  username: 'alice',
  password: 'gh-secret',
  urls: ['https://github.com/login', 'gist.github.com', 'javascript:alert(1)'],
  notes: 'Recovery codes are in the safe.',
  totp: RFC_SEED,
  tags: ['work'],
  fields: [
    { id: 'pin', label: 'PIN', kind: 'hidden' },
    { id: 'team', label: 'Team', kind: 'text', value: 'Platform' },
    { id: 'sso', label: 'Uses SSO', kind: 'boolean', value: 'true' },
  ],
  hidden: { pin: '4321' },
};

async function openVault(plains: PlainEntry[], folderNames: string[] = []) {
  const { keyring, vault } = await unlockedKeyring();
  const entries = [];
  for (const plain of plains) entries.push(await sealedEntry(vault.vaultKey, plain));
  const folders = await Promise.all(folderNames.map((name) => sealedFolder(vault.vaultKey, name)));
  const server = fakeEntryRoutes(entries, {}, folders);
  const api = fakeApi({ ...signedInRoutes(), ...server.routes });
  const app = renderApp('/vault', { routes, keyring });
  await screen.findByRole('list', { name: 'Saved passwords' });
  return { app, api, server, entries };
}

async function openItem(app: Awaited<ReturnType<typeof openVault>>['app'], name: string) {
  await app.user.click(within(screen.getByRole('listitem', { name })).getByRole('button', { name }));
  const pane = screen.getByRole('complementary', { name: 'Entry details' });
  // Its secrets are decrypted as it opens.
  await waitFor(() => expect(within(pane).queryByText('Decrypting…')).not.toBeInTheDocument());
  return pane;
}

describe('Item view', () => {
  it('shows every field of the entry, with its heading focused', async () => {
    installFakeClockWithRealTime();
    vi.setSystemTime(RFC_TIME_MS);
    const { app } = await openVault([GITHUB]);
    const pane = await openItem(app, 'GitHub');

    expect(within(pane).getByRole('heading', { name: 'GitHub' })).toHaveFocus();
    const fields = within(pane)
      .getAllByRole('term')
      .map((term) => term.textContent);
    expect(fields).toEqual([
      'User name',
      'Password',
      'Web address 1',
      'Web address 2',
      'Web address 3',
      'One-time code',
      'PIN',
      'Team',
      'Uses SSO',
      'Notes',
    ]);
    expect(within(pane).getByText('alice')).toBeInTheDocument();
    expect(within(pane).getByText('Platform')).toBeInTheDocument();
    expect(within(pane).getByText('Yes')).toBeInTheDocument();
    expect(within(pane).getByText('Recovery codes are in the safe.')).toBeInTheDocument();
    // Hidden values stay masked until asked for.
    expect(within(pane).queryByText('gh-secret')).not.toBeInTheDocument();
    expect(within(pane).queryByText('4321')).not.toBeInTheDocument();
    await app.user.click(within(pane).getByRole('button', { name: 'Show pin' }));
    expect(within(pane).getByText('4321')).toBeInTheDocument();
    await app.user.click(within(pane).getByRole('button', { name: 'Show password' }));
    expect(within(pane).getByText('gh-secret')).toBeInTheDocument();
    await app.user.click(within(pane).getByRole('button', { name: 'Hide password' }));
    expect(within(pane).queryByText('gh-secret')).not.toBeInTheDocument();
  });

  it("names an address's own match rule under it, and nothing under an address that follows the default", async () => {
    const { app } = await openVault([
      { ...GITHUB, urls: ['https://github.com/login', 'gist.github.com'], urlRules: { 'https://github.com/login': 'exact' } },
    ]);
    const pane = await openItem(app, 'GitHub');
    expect(
      within(pane)
        .getAllByText(/^Match:/)
        .map((note) => note.textContent),
    ).toEqual(['Match: exact']);
  });

  it('shows the live one-time code of a known seed at a known time, with its countdown', async () => {
    installFakeClockWithRealTime();
    vi.setSystemTime(RFC_TIME_MS);
    const { app } = await openVault([GITHUB]);
    const pane = await openItem(app, 'GitHub');
    expect(within(pane).getByTestId('totp-code')).toHaveTextContent('89005924');
    // 1234567890 is a multiple of 30: the code is new, with (nearly) the whole period left.
    expect(within(pane).getByText(/^(30|29|28) s$/)).toBeInTheDocument();

    await advance(30_000);
    expect(within(pane).getByTestId('totp-code')).not.toHaveTextContent('89005924');
    await app.user.click(within(pane).getByRole('button', { name: 'Copy one-time code' }));
    await within(pane).findByRole('button', { name: 'One-time code copied' });
    expect(await navigator.clipboard.readText()).toBe(within(pane).getByTestId('totp-code').textContent);
  });

  it('copies each field with its own button, and links the web addresses into a new tab', async () => {
    const { app } = await openVault([GITHUB]);
    const pane = await openItem(app, 'GitHub');
    const copies: Array<[string, string]> = [
      ['Copy user name', 'alice'],
      ['Copy password', 'gh-secret'],
      ['Copy web address 1', 'https://github.com/login'],
      ['Copy web address 2', 'gist.github.com'],
      ['Copy pin', '4321'],
      ['Copy team', 'Platform'],
      ['Copy notes', 'Recovery codes are in the safe.'],
    ];
    for (const [button, text] of copies) {
      await app.user.click(within(pane).getByRole('button', { name: button }));
      // The check mark lasts COPY_CHECK_MS: looked for at once, before the other copies take that long.
      if (button === 'Copy password') {
        expect(await within(pane).findByRole('button', { name: 'Password copied' })).toHaveAttribute('data-icon', 'check');
      }
      await waitFor(async () => expect(await navigator.clipboard.readText()).toBe(text));
    }

    const links = within(pane).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      'https://github.com/login',
      'https://github.com/login',
      'https://gist.github.com/',
      'https://gist.github.com/',
    ]);
    for (const link of links) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
    // Not a web address: shown as text, never a link.
    expect(within(pane).getByText('javascript:alert(1)').closest('a')).toBeNull();
  });

  it('toggles the favourite and changes tags and folder by saving the entry', async () => {
    const { app, api, entries, server } = await openVault([GITHUB], ['Work/Banking', 'Personal']);
    const pane = await openItem(app, 'GitHub');
    const favourite = within(pane).getByRole('button', { name: 'Favourite' });
    expect(favourite).toHaveAttribute('aria-pressed', 'false');
    await app.user.click(favourite);
    await waitFor(() => expect(within(pane).getByRole('button', { name: 'Favourite' })).toHaveAttribute('aria-pressed', 'true'));
    expect(api.requests.filter((request) => request.method === 'PUT' && request.path !== apiPaths.vaultState)).toHaveLength(1);

    await within(pane).findByText('Notes');
    await app.user.type(within(pane).getByLabelText('New tag'), 'Finance');
    await app.user.click(within(pane).getByRole('button', { name: 'Add tag' }));
    const tags = await within(pane).findByRole('list', { name: 'Tags' });
    await waitFor(() =>
      expect(
        within(tags)
          .getAllByRole('listitem')
          .map((tag) => tag.firstChild?.textContent),
      ).toEqual(['work', 'Finance']),
    );
    await within(pane).findByText('Notes');
    await app.user.click(within(pane).getByRole('button', { name: 'Remove tag work' }));
    await waitFor(() => expect(within(pane).queryByRole('button', { name: 'Remove tag work' })).not.toBeInTheDocument());
    await within(pane).findByText('Notes');
    const folder = within(pane).getByRole('combobox', { name: 'Folder' });
    expect([...folder.querySelectorAll('option')].map((option) => option.textContent)).toEqual([
      'No folder',
      'Personal',
      'Work/Banking',
    ]);
    await app.user.selectOptions(folder, 'Work/Banking');
    await waitFor(() => expect(within(pane).getByText('Login · Work/Banking')).toBeInTheDocument());
    expect(server.store.get(entries[0]!.id)!.revision).toBe(5);
    await app.user.click(within(screen.getByRole('navigation', { name: 'Filters' })).getByRole('button', { name: 'Banking 1' }));
    expect(listedNames()).toEqual(['GitHub']);
    // Secrets survive the saves of the item view.
    await within(pane).findByText('Notes');
    await app.user.click(within(pane).getByRole('button', { name: 'Show password' }));
    expect(within(pane).getByText('gh-secret')).toBeInTheDocument();
  });

  it('closes on Escape and gives focus back to the row', async () => {
    const { app } = await openVault([GITHUB, { serviceName: 'Mail', username: 'm', password: 'p' }]);
    const pane = await openItem(app, 'Mail');
    expect(within(pane).getByRole('heading', { name: 'Mail' })).toHaveFocus();
    await app.user.keyboard('{Escape}');
    expect(screen.queryByRole('complementary', { name: 'Entry details' })).not.toBeInTheDocument();
    await waitFor(() =>
      expect(within(screen.getByRole('listitem', { name: 'Mail' })).getByRole('button', { name: 'Mail' })).toHaveFocus(),
    );
  });

  it('on a phone is a full-screen sheet, and a pane beside the list from 1280 px', async () => {
    const { app } = await openVault([GITHUB]);
    await openItem(app, 'GitHub');
    const sheet = screen.getByRole('complementary', { name: 'Entry details' });
    expect(sheet).toHaveClass('fixed', 'inset-0', 'z-50', 'xl:sticky');
    await app.user.click(within(sheet).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('complementary', { name: 'Entry details' })).not.toBeInTheDocument();
  });
});

describe('Vault list: keyboard', () => {
  // Eleven rows: all of them rendered in the test viewport (8 in view and the list's overscan).
  const names = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf', 'Hotel', 'India', 'Juliett', 'Kilo'];

  it('is one row of Tab stops; arrow keys, Home and End move between rows, and Enter opens the entry', async () => {
    const { app } = await openVault(names.map((serviceName) => ({ serviceName, username: 'u', password: 'p' })));
    const nameButton = (name: string) => within(screen.getByRole('listitem', { name })).getByRole('button', { name });
    expect(nameButton('Alpha')).toHaveAttribute('tabindex', '0');
    expect(nameButton('Bravo')).toHaveAttribute('tabindex', '-1');
    expect(screen.getByRole('button', { name: 'Edit Bravo' })).toHaveAttribute('tabindex', '-1');

    screen.getByRole('combobox', { name: 'Sort by' }).focus();
    await app.user.tab();
    expect(nameButton('Alpha')).toHaveFocus();
    await app.user.keyboard('{ArrowDown}');
    expect(nameButton('Bravo')).toHaveFocus();
    expect(nameButton('Bravo')).toHaveAttribute('tabindex', '0');
    expect(nameButton('Alpha')).toHaveAttribute('tabindex', '-1');
    await app.user.keyboard('{ArrowDown}{ArrowDown}{ArrowUp}');
    expect(nameButton('Charlie')).toHaveFocus();

    await app.user.keyboard('{End}');
    await waitFor(() => expect(nameButton('Kilo')).toHaveFocus());
    await app.user.keyboard('{Home}');
    await waitFor(() => expect(nameButton('Alpha')).toHaveFocus());
    await app.user.keyboard('{ArrowDown}{Enter}');
    const pane = screen.getByRole('complementary', { name: 'Entry details' });
    expect(within(pane).getByRole('heading', { name: 'Bravo' })).toHaveFocus();
  });

  it('moves from any control of a row to the next row', async () => {
    const { app } = await openVault(names.slice(0, 3).map((serviceName) => ({ serviceName, username: 'u', password: 'p' })));
    screen.getByRole('button', { name: 'Copy password for Alpha' }).focus();
    await app.user.keyboard('{ArrowDown}');
    expect(within(screen.getByRole('listitem', { name: 'Bravo' })).getByRole('button', { name: 'Bravo' })).toHaveFocus();
    expect(listedNames()).toEqual(['Alpha', 'Bravo', 'Charlie']);
  });
});

describe('Vault rows: copy user name and code', () => {
  it('copies the user name, shows a check for 2 s, and clears the clipboard after 30 s if it still holds it', async () => {
    installFakeClockWithRealTime();
    const { app } = await openVault([GITHUB]);
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    const row = screen.getByRole('listitem', { name: 'GitHub' });
    await app.user.click(within(row).getByRole('button', { name: 'Copy user name for GitHub' }));
    const check = await within(row).findByRole('button', { name: 'User name for GitHub copied' });
    expect(check).toHaveAttribute('data-icon', 'check');
    expect(await navigator.clipboard.readText()).toBe('alice');
    expect(screen.getByText('User name copied to the clipboard.')).toBeInTheDocument();

    await advance(COPY_CHECK_MS + 100);
    expect(within(row).getByRole('button', { name: 'Copy user name for GitHub' })).toHaveAttribute('data-icon', 'user');
    expect(await navigator.clipboard.readText()).toBe('alice');

    await advance(DEFAULT_CLIPBOARD_CLEAR_MS - COPY_CHECK_MS);
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith(''));
    expect(writeText.mock.calls).toEqual([['alice'], ['']]);
  });

  it('leaves the clipboard alone when something else was copied meanwhile', async () => {
    installFakeClockWithRealTime();
    const { app } = await openVault([GITHUB]);
    await app.user.click(screen.getByRole('button', { name: 'Copy user name for GitHub' }));
    await screen.findByRole('button', { name: 'User name for GitHub copied' });
    await navigator.clipboard.writeText('my own text');
    await advance(DEFAULT_CLIPBOARD_CLEAR_MS + 100);
    expect(await navigator.clipboard.readText()).toBe('my own text');
  });

  it('copies the current one-time code from the row, opening the seed only then', async () => {
    installFakeClockWithRealTime();
    vi.setSystemTime(RFC_TIME_MS);
    const { app } = await openVault([GITHUB, { serviceName: 'Mail', username: 'm', password: 'p' }]);
    expect(screen.queryByRole('button', { name: 'Copy code for Mail' })).not.toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Copy code for GitHub' }));
    await screen.findByRole('button', { name: 'Code for GitHub copied' });
    expect(await navigator.clipboard.readText()).toBe('89005924');
  });

  it('wraps a revealed 1,000-character password inside its row, on a line of its own that scrolls', async () => {
    const long = 'x'.repeat(1000);
    const { app } = await openVault([{ serviceName: 'Long', username: 'u', password: long }]);
    const row = screen.getByRole('listitem', { name: 'Long' });
    await app.user.click(within(row).getByRole('button', { name: 'Show password for Long' }));
    const password = await within(row).findByText(long);
    // Breaks anywhere, takes the whole width below the name on a phone, and scrolls past
    // five lines: the row's buttons stay in the list box.
    expect(password).toHaveClass('break-all', 'min-w-0', 'basis-full', 'max-h-24', 'overflow-y-auto');
    expect(row).toHaveClass('flex-wrap');
  });
});
