import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, signedInRoutes } from '@/testing/fake-api';
import { pageRoutes } from '@/testing/page-routes';
import { installListScrolling } from '@/testing/list-scrolling';
import { renderApp } from '@/testing/render-app';
import { fakeEntryRoutes, sealedEntries, unlockedKeyring, type PlainEntry } from '@/testing/vault-fixtures';
import { VaultPage } from './vault-page';

let uninstallScrollTo: () => void = () => {};
beforeEach(() => {
  uninstallScrollTo = installListScrolling();
});
afterEach(() => uninstallScrollTo());

const routes = pageRoutes({ '/vault': <VaultPage /> });

/** "Entry 0001" … "Entry 1000": the name order is the number order. */
const nameOf = (position: number) => `Entry ${String(position).padStart(4, '0')}`;
const VAULT_SIZE = 1_000;
/** Focus moves within a few frames: look often, so seventy-odd moves take seconds, not minutes. */
const FAST = { interval: 5 };

async function openBigVault() {
  const { keyring, vault } = await unlockedKeyring();
  const plains: PlainEntry[] = Array.from({ length: VAULT_SIZE }, (_, i) => ({
    serviceName: nameOf(i + 1),
    username: 'someone',
    password: 'pw',
  }));
  const entries = await sealedEntries(vault.vaultKey, plains);
  fakeApi({ ...signedInRoutes(), ...fakeEntryRoutes(entries).routes });
  const app = renderApp('/vault', { routes, keyring });
  await screen.findByRole('list', { name: 'Saved passwords' });
  await screen.findByRole('listitem', { name: nameOf(1) });
  return app;
}

const renderedPositions = () =>
  new Set(
    [...document.querySelectorAll('[role="listitem"][aria-posinset]')].map((row) => Number(row.getAttribute('aria-posinset'))),
  );
const focusedRowPosition = () =>
  Number((document.activeElement as HTMLElement | null)?.closest('[role="listitem"]')?.getAttribute('aria-posinset') ?? 0);

describe('Vault list: keyboard in a virtualised list of 1,000 entries', () => {
  // A thousand entries sealed and opened, then seventy-odd moves that each wait for a frame or
  // three: several seconds on a busy machine, more than the default 20 s allows at worst.
  it(
    'moves focus to rows that were not rendered yet (End, PageDown, ArrowDown), and Enter opens the 500th',
    { timeout: 60_000 },
    async () => {
      const app = await openBigVault();
      const nameButton = (name: string) => within(screen.getByRole('listitem', { name })).getByRole('button', { name });
      // Only a screenful (and the overscan) is rendered: the 500th and the last row are not.
      expect(renderedPositions().has(1)).toBe(true);
      expect(renderedPositions().has(500)).toBe(false);
      expect(renderedPositions().has(VAULT_SIZE)).toBe(false);

      nameButton(nameOf(1)).focus();
      await app.user.keyboard('{End}');
      await waitFor(() => expect(nameButton(nameOf(VAULT_SIZE))).toHaveFocus());
      expect(focusedRowPosition()).toBe(VAULT_SIZE);

      await app.user.keyboard('{Home}');
      await waitFor(() => expect(nameButton(nameOf(1))).toHaveFocus());

      // Page by page (some pages land on rows not rendered when the key went down), until the 500th is a step or two away.
      let position = 1;
      let landedOnUnrenderedRows = 0;
      for (;;) {
        const renderedBefore = renderedPositions();
        await app.user.keyboard('{PageDown}');
        await waitFor(() => expect(focusedRowPosition()).toBeGreaterThan(position), FAST);
        const next = focusedRowPosition();
        if (!renderedBefore.has(next)) landedOnUnrenderedRows += 1;
        if (next > 500) {
          await app.user.keyboard('{PageUp}');
          await waitFor(() => expect(focusedRowPosition()).toBeLessThan(next));
          position = focusedRowPosition();
          break;
        }
        position = next;
      }
      expect(landedOnUnrenderedRows).toBeGreaterThan(0);
      while (position < 500) {
        await app.user.keyboard('{ArrowDown}');
        await waitFor(() => expect(focusedRowPosition()).toBe(position + 1), FAST);
        position += 1;
      }
      expect(nameButton(nameOf(500))).toHaveFocus();

      await app.user.keyboard('{Enter}');
      const pane = await screen.findByRole('complementary', { name: 'Entry details' });
      expect(within(pane).getByRole('heading', { name: nameOf(500) })).toHaveFocus();
    },
  );
});
