import { apiPaths } from '@lockit/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, route, signedInRoutes } from '@/testing/fake-api';
import { rowHeightReadsSoFar, TEST_LIST_VIEWPORT_PX, TEST_ROW_HEIGHT_PX } from '@/testing/layout';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import {
  fakeEntryRoutes,
  listedNames,
  sealedEntries,
  sealedEntry,
  unlockedKeyring,
  type PlainEntry,
} from '@/testing/vault-fixtures';
import { REST_OVERSCAN_ROWS, SCROLL_AHEAD_ROWS } from '../lib/rows-to-render';
import { ROW_MIN_HEIGHT_PX } from './entry-row';
import { VaultPage } from './vault-page';

const routes = pageRoutes({ '/vault': <VaultPage /> });

async function openVault(plains: PlainEntry[]) {
  const { keyring, vault } = await unlockedKeyring();
  const entries = await sealedEntries(vault.vaultKey, plains);
  const api = fakeApi({ ...signedInRoutes(), ...fakeEntryRoutes(entries).routes });
  const app = renderApp('/vault', { routes, keyring });
  await screen.findByRole('list', { name: 'Saved passwords' });
  return { app, api, entries };
}

const span = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const entry = (serviceName: string, username = 'someone', url?: string): PlainEntry => ({
  serviceName,
  username,
  password: 'pw',
  url,
});

describe('Vault list: order', () => {
  it('sorts by service name ignoring case and accents', async () => {
    // Created in this order (the server sends oldest first); code units would put capitals first.
    await openVault([entry('beta'), entry('Gamma'), entry('Émoji'), entry('alpha'), entry('Delta')]);
    expect(listedNames()).toEqual(['alpha', 'beta', 'Delta', 'Émoji', 'Gamma']);
  });

  it('breaks a tie of names that differ only in case by id, so the order is stable', async () => {
    const { keyring, vault } = await unlockedKeyring();
    const createdAt = '2025-02-02T00:00:00.000Z';
    const later = await sealedEntry(vault.vaultKey, entry('Same', 'second'), {
      id: 'ffffffff-ffff-4fff-8fff-ffffffffffff',
      createdAt,
    });
    const first = await sealedEntry(vault.vaultKey, entry('same', 'first'), {
      id: '00000000-0000-4000-8000-000000000000',
      createdAt,
    });
    fakeApi({ ...signedInRoutes(), ...fakeEntryRoutes([later, first]).routes });
    renderApp('/vault', { routes, keyring });
    await screen.findByRole('list', { name: 'Saved passwords' });
    expect(listedNames()).toEqual(['same', 'Same']);
  });
});

describe('Vault list: search', () => {
  it('filters as you type over service name, user name and url, ignoring case', async () => {
    const { app } = await openVault([
      entry('GitHub', 'alice'),
      entry('Mailbox', 'alice'),
      entry('Bank', 'me@mail.example'),
      entry('Shop', 'alice', 'https://MAIL.example/shop'),
      entry('Forum', 'bob'),
    ]);
    const search = screen.getByRole('searchbox', { name: 'Search' });

    await app.user.type(search, 'MAIL');
    expect(listedNames()).toEqual(['Bank', 'Mailbox', 'Shop']);
    await app.user.clear(search);
    await app.user.type(search, 'bo');
    expect(listedNames()).toEqual(['Forum', 'Mailbox']);
    await app.user.type(search, 'x');
    expect(listedNames()).toEqual(['Mailbox']);

    await app.user.type(search, 'zzz');
    expect(screen.getByText('No passwords match your search.')).toBeInTheDocument();
    expect(screen.queryByText(/haven't saved any passwords/)).not.toBeInTheDocument();

    await app.user.clear(search);
    expect(listedNames()).toEqual(['Bank', 'Forum', 'GitHub', 'Mailbox', 'Shop']);
  });
});

describe('Vault list: size', () => {
  const many = Array.from({ length: 1_200 }, (_, i) => entry(`Service ${String(i).padStart(4, '0')}`, `user${i}`));

  it('renders only the rows in view, whatever the size of the vault, and more as it scrolls', async () => {
    const { app } = await openVault(many);
    const rendered = () => screen.getByTestId('vault-list').querySelectorAll('[data-entry-id]');
    expect(rendered().length).toBeGreaterThan(5);
    expect(rendered().length).toBeLessThan(40);
    expect(listedNames()[0]).toBe('Service 0000');
    expect(screen.queryByRole('listitem', { name: 'Service 0700' })).not.toBeInTheDocument();

    const list = screen.getByTestId('vault-list');
    list.scrollTop = 700 * TEST_ROW_HEIGHT_PX;
    fireEvent.scroll(list);
    // Unmeasured rows count at the estimated height, so the exact first row varies a little.
    await waitFor(() => expect(listedNames()[0]! > 'Service 0550').toBe(true));
    expect(screen.queryByRole('listitem', { name: 'Service 0000' })).not.toBeInTheDocument();
    expect(rendered().length).toBeLessThan(40);

    await app.user.type(screen.getByRole('searchbox', { name: 'Search' }), 'service 1199');
    await waitFor(() => expect(listedNames()).toEqual(['Service 1199']));
    expect(within(screen.getByRole('listitem', { name: 'Service 1199' })).getByText('user1199')).toBeInTheDocument();
  });

  it('keeps two rows beyond the view at rest and eight ahead while scrolling, so a search key replaces few rows', async () => {
    await openVault(many);
    const list = screen.getByTestId('vault-list');
    const renderedIndexes = () => [...list.querySelectorAll('[data-index]')].map((row) => Number(row.getAttribute('data-index')));
    // At the list's estimate (72 px) the first 600 px show rows 0 to 8.
    const lastInView = Math.ceil(TEST_LIST_VIEWPORT_PX / ROW_MIN_HEIGHT_PX) - 1;
    expect(renderedIndexes()).toEqual(span(0, lastInView + REST_OVERSCAN_ROWS));

    list.scrollTop = 300 * ROW_MIN_HEIGHT_PX;
    fireEvent.scroll(list);
    await waitFor(() => expect(renderedIndexes()).toEqual(span(300 - REST_OVERSCAN_ROWS, 300 + lastInView + SCROLL_AHEAD_ROWS)));
  });

  it('on a search key creates no row out of view before its frame: new rows beyond the view follow it, unchanged ones stay', async () => {
    await openVault(many);
    const list = screen.getByTestId('vault-list');
    const renderedIndexes = () => [...list.querySelectorAll('[data-index]')].map((row) => Number(row.getAttribute('data-index')));
    const lastInView = Math.ceil(TEST_LIST_VIEWPORT_PX / ROW_MIN_HEIGHT_PX) - 1;
    let frames = 0;
    let counting = true;
    const countFrames = () => {
      frames += 1;
      if (counting) requestAnimationFrame(countFrames);
    };
    requestAnimationFrame(countFrames);
    await waitFor(() => expect(frames).toBeGreaterThan(0));

    // Every word must match: "service 1" is the services with a 1 in their number.
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: 'service 1' } });
    const framesAtKey = frames;
    expect(listedNames()[0]).toBe('Service 0001');
    expect(renderedIndexes()).toEqual(span(0, lastInView));
    await waitFor(() => expect(renderedIndexes()).toEqual(span(0, lastInView + REST_OVERSCAN_ROWS)));
    expect(frames).toBeGreaterThan(framesAtKey);
    counting = false;

    // A key that leaves the rows as they are keeps the rows beyond the view as they are: "0"
    // drops the services without a 0 (1111, 1112, ...), far below the first rows.
    const beyondView = list.querySelector(`[data-index="${lastInView + 1}"]`);
    const before = listedNames();
    const countBefore = screen.getByText(/^[\d,]+ entries$/).textContent;
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: 'service 1 0' } });
    expect(screen.getByText(/^[\d,]+ entries$/).textContent).not.toBe(countBefore);
    expect(listedNames()).toEqual(before);
    expect(renderedIndexes()).toEqual(span(0, lastInView + REST_OVERSCAN_ROWS));
    expect(list.querySelector(`[data-index="${lastInView + 1}"]`)).toBe(beyondView);
  });

  it('mounts the rows a search brings without reading their height, which would force a layout per row', async () => {
    const { app } = await openVault(many);
    const before = rowHeightReadsSoFar();
    await app.user.type(screen.getByRole('searchbox', { name: 'Search' }), 'service 11');
    await waitFor(() => expect(listedNames()[0]).toBe('Service 0011'));
    expect(rowHeightReadsSoFar()).toBe(before);
  });

  it('mounts a row as twelve elements: a monogram of letters, no image, and icons drawn by CSS, named on each button', async () => {
    await openVault([entry('Bank')]);
    const row = screen.getByRole('listitem', { name: 'Bank' });
    expect(row.querySelectorAll('*').length + 1).toBe(12);
    expect(row.querySelector('svg, img')).toBeNull();
    const [name, ...actions] = within(row).getAllByRole('button');
    expect(name).toHaveTextContent('Bank');
    const icons = actions.map((button) => [button.getAttribute('aria-label'), button.getAttribute('data-icon')]);
    expect(icons).toEqual([
      ['Show password for Bank', 'eye'],
      ['Copy password for Bank', 'copy'],
      ['Copy user name for Bank', 'user'],
      ['Edit Bank', 'edit'],
      ['Delete Bank', 'trash'],
    ]);
    for (const button of actions) expect(button).toHaveClass('row-icon');
  });

  it('fetches once and marks the end of decryption and the first paint for the performance harness', async () => {
    performance.clearMarks();
    const { api } = await openVault(many);
    await waitFor(() => expect(performance.getEntriesByName('lockit:vault-painted')).toHaveLength(1));
    const [start] = performance.getEntriesByName('lockit:vault-load-start');
    const [decrypted] = performance.getEntriesByName('lockit:vault-decrypted');
    const [painted] = performance.getEntriesByName('lockit:vault-painted');
    expect(start!.startTime).toBeLessThanOrEqual(decrypted!.startTime);
    expect(decrypted!.startTime).toBeLessThanOrEqual(painted!.startTime);
    expect(api.to('GET', apiPaths.listEntries)).toHaveLength(1);
  });

  it('opens one field per entry, its bound overview: names, passwords and notes stay sealed until asked for', async () => {
    const { keyring, vault } = await unlockedKeyring();
    const entries = await Promise.all(
      ['GitHub', 'Mail', 'Bank'].map((serviceName) =>
        sealedEntry(vault.vaultKey, { serviceName, username: 'alice', password: 'pw', notes: 'n', url: 'https://x.example' }),
      ),
    );
    fakeApi({
      ...signedInRoutes(),
      [route('GET', apiPaths.listEntries)]: { status: 200, body: { message: 'Success', data: entries } },
    });
    const opened: string[] = [];
    const decrypt = globalThis.crypto.subtle.decrypt.bind(globalThis.crypto.subtle);
    const spy = vi.spyOn(globalThis.crypto.subtle, 'decrypt').mockImplementation((algorithm, key, data) => {
      const aad = (algorithm as AesGcmParams).additionalData;
      if (aad) opened.push(new TextDecoder().decode(aad as Uint8Array));
      return decrypt(algorithm, key, data);
    });
    try {
      renderApp('/vault', { routes, keyring });
      const row = await screen.findByRole('listitem', { name: 'GitHub' });
      expect(within(row).getByText('alice')).toBeInTheDocument();
      expect(within(row).getByText('••••••••')).toBeInTheDocument();
      await screen.findByRole('listitem', { name: 'Bank' });
    } finally {
      spy.mockRestore();
    }
    const entryFields = opened.filter((aad) => aad.includes('/entry|'));
    expect(entryFields).toHaveLength(3);
    expect(entryFields.every((aad) => aad.startsWith('lockit/bound-v3|') && aad.includes('|overview|'))).toBe(true);
  });

  it('opens the name, user name and web address too of an entry saved before bound overviews, never its password or notes', async () => {
    const { keyring, vault } = await unlockedKeyring();
    const entry = await sealedEntry(
      vault.vaultKey,
      { serviceName: 'GitHub', username: 'alice', password: 'pw', notes: 'n', url: 'https://x.example' },
      { format: 'unbound' },
    );
    // A password and notes that would fail if decrypted: the list still shows the entry whole.
    const unopened = {
      ...entry,
      password: 'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA',
      notes: 'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA',
    };
    fakeApi({
      ...signedInRoutes(),
      [route('GET', apiPaths.listEntries)]: { status: 200, body: { message: 'Success', data: [unopened] } },
    });
    renderApp('/vault', { routes, keyring });
    const row = await screen.findByRole('listitem', { name: 'GitHub' });
    expect(within(row).getByText('alice')).toBeInTheDocument();
    expect(within(row).getByText('••••••••')).toBeInTheDocument();
    expect(screen.queryByText(/could not be decrypted/)).not.toBeInTheDocument();
  });
});
