import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, signedInRoutes } from '@/testing/fake-api';
import { installListScrolling } from '@/testing/list-scrolling';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { fakeEntryRoutes, sealedEntries, unlockedKeyring, type PlainEntry } from '@/testing/vault-fixtures';
import { VaultPage } from './vault-page';

let uninstallScrolling: () => void = () => {};
beforeEach(() => {
  uninstallScrolling = installListScrolling();
});
afterEach(() => uninstallScrolling());

const routes = pageRoutes({ '/vault': <VaultPage /> });
/** "Entry 001" … "Entry 300": many screens of rows, in name order. */
const nameOf = (position: number) => `Entry ${String(position).padStart(3, '0')}`;

async function openLongVault() {
  const { keyring, vault } = await unlockedKeyring();
  const plains: PlainEntry[] = Array.from({ length: 300 }, (_, i) => ({
    serviceName: nameOf(i + 1),
    username: 'someone',
    password: 'pw',
  }));
  fakeApi({ ...signedInRoutes(), ...fakeEntryRoutes(await sealedEntries(vault.vaultKey, plains)).routes });
  const app = renderApp('/vault', { routes, keyring });
  await screen.findByRole('listitem', { name: nameOf(1) });
  return app;
}

/** Whether the row lies within the list's viewport as it is scrolled now. */
function inView(row: HTMLElement): boolean {
  const list = screen.getByTestId('vault-list');
  const top = Number(/translateY\((-?[\d.]+)px\)/.exec(row.style.transform)?.[1]);
  return top >= list.scrollTop && top < list.scrollTop + list.clientHeight;
}

describe('Vault: a new entry is shown once added', () => {
  it('scrolls a new entry that sorts below the rows in view into view, and opens it in the item view', async () => {
    const app = await openLongVault();
    const list = screen.getByTestId('vault-list');
    expect(list.scrollTop).toBe(0);

    await app.user.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New Password' });
    await app.user.type(within(dialog).getByLabelText('Service'), 'Zephyr Mail');
    await app.user.type(within(dialog).getByLabelText('Username'), 'alice');
    await app.user.type(within(dialog).getByLabelText('Password'), 'a new secret');
    await app.user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // Last of 301 rows, far below the first screen: the list scrolled to it.
    const row = await screen.findByRole('listitem', { name: 'Zephyr Mail' });
    expect(row).toHaveAttribute('aria-posinset', '301');
    await waitFor(() => expect(inView(row)).toBe(true));
    expect(list.scrollTop).toBeGreaterThan(0);

    // Opened as a click on its row opens it: the item view shows it, and its row holds the list's Tab stop.
    const details = screen.getByRole('complementary', { name: 'Entry details' });
    expect(within(details).getByRole('heading', { level: 2 })).toHaveTextContent('Zephyr Mail');
    expect(
      within(row)
        .getAllByRole('button')
        .some((button) => button.tabIndex === 0),
    ).toBe(true);
  });

  it('opens an entry that sorts among the rows in view without scrolling the list', async () => {
    const app = await openLongVault();
    await app.user.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New Password' });
    await app.user.type(within(dialog).getByLabelText('Service'), 'Alpha');
    await app.user.type(within(dialog).getByLabelText('Username'), 'alice');
    await app.user.type(within(dialog).getByLabelText('Password'), 'a new secret');
    await app.user.click(within(dialog).getByRole('button', { name: 'Add' }));

    const row = await screen.findByRole('listitem', { name: 'Alpha' });
    expect(row).toHaveAttribute('aria-posinset', '1');
    const details = await screen.findByRole('complementary', { name: 'Entry details' });
    expect(within(details).getByRole('heading', { level: 2 })).toHaveTextContent('Alpha');
    expect(screen.getByTestId('vault-list').scrollTop).toBe(0);
  });
});
