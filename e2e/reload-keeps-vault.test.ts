import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useE2e } from './support/setup';
import { newAccount, signIn, signUpViaApi, submitSignIn } from './support/journeys';
import { addEntry, openVault, rowOf } from './support/vault-page';

const e2e = useE2e();

const unlockForm = (page: Page) => page.getByLabel('Master Password', { exact: true });
const vaultHeading = (page: Page) => page.getByRole('heading', { name: 'Your Password Vault' });

/** What this tab keeps for a reload, as a page script sees it (decision 0048). */
function tabStorage(page: Page) {
  return page.evaluate(async () => {
    const keys = await new Promise<{ id: string; extractable: boolean; usages: string[]; algorithm: string }[]>(
      (resolve, reject) => {
        const open = indexedDB.open('lockit-tab-keys');
        // Not made yet by the app: do not make it here either (the upgrade is called off).
        open.onupgradeneeded = () => open.transaction?.abort();
        open.onerror = () => (open.error?.name === 'AbortError' ? resolve([]) : reject(open.error));
        open.onsuccess = () => {
          const all = open.result.transaction('keys', 'readonly').objectStore('keys').getAll();
          all.onsuccess = () =>
            resolve(
              (all.result as { id: string; key: CryptoKey }[]).map(({ id, key }) => ({
                id,
                extractable: key.extractable,
                usages: [...key.usages],
                algorithm: key.algorithm.name,
              })),
            );
          all.onerror = () => reject(all.error);
        };
      },
    );
    const session = Object.fromEntries(Object.keys(sessionStorage).map((name) => [name, sessionStorage.getItem(name)]));
    const local = Object.fromEntries(Object.keys(localStorage).map((name) => [name, localStorage.getItem(name)]));
    return { keys, session, local };
  });
}

describe('A reload keeps the vault open', () => {
  it('reload and /vault by address stay unlocked; a new tab asks; nothing stored opens without the tab key', async () => {
    const account = newAccount('reload');
    const context = await e2e.newContext();
    const page = await context.newPage();
    await signUpViaApi(e2e.server, e2e.smtp, account);
    await signIn(page, account.username, account.password);
    await openVault(page);
    await addEntry(page, { service: 'Reloaded Mail', username: 'ada', password: 'kept-through-reload' });

    await page.reload();
    await rowOf(page, 'Reloaded Mail').waitFor();
    expect(await unlockForm(page).count()).toBe(0);

    await page.goto('/vault');
    await rowOf(page, 'Reloaded Mail').waitFor();
    expect(await unlockForm(page).count()).toBe(0);

    // What a script of this origin finds: one non-extractable key, and only a wrapped copy.
    const stored = await tabStorage(page);
    expect(stored.keys).toHaveLength(1);
    expect(stored.keys[0]).toMatchObject({ extractable: false, algorithm: 'AES-GCM' });
    expect(stored.keys[0]!.usages.sort()).toEqual(['encrypt', 'unwrapKey']);
    const record = JSON.parse(stored.session['lockit.reloadVault'] ?? 'null') as Record<string, unknown>;
    expect(record).toMatchObject({ v: 1, id: stored.keys[0]!.id, username: account.username });
    expect(String(record.wrappedKey)).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{64}$/);
    // Besides the key memories: the vault state counter (a number) and the manifest of what this
    // browser saw, sealed under the vault key itself (decision 0053), so it opens with nothing kept here.
    const kept = (prefix: string) => Object.keys(stored.local).filter((name) => name.startsWith(prefix));
    expect(
      Object.keys(stored.local).filter(
        (name) =>
          ![
            'lockit.kdfFloor.',
            'lockit.keyGeneration.',
            'lockit.keyEpoch.',
            'lockit.vaultCounter.',
            'lockit.vaultManifest.',
            // Which account this browser signed in as, and which account a passkey user handle is: digests.
            'lockit.sessionAccount',
            'lockit.passkeyAccount.',
          ].some((prefix) => name.startsWith(prefix)),
      ),
    ).toEqual([]);
    for (const name of kept('lockit.vaultCounter.')) expect(stored.local[name]).toMatch(/^\d+$/);
    for (const name of kept('lockit.vaultManifest.')) expect(stored.local[name]).toMatch(/^v2\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    // Without unwrapKey under that key, the wrapped copy is 48 bytes of noise: a fresh key fails.
    const opensWithOtherKey = await page.evaluate(async (wrapped: string) => {
      const [, iv, data] = wrapped.split('.');
      const bytes = (text: string) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
      const other = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['decrypt']);
      return crypto.subtle.decrypt({ name: 'AES-GCM', iv: bytes(iv!) }, other, bytes(data!)).then(
        () => true,
        () => false,
      );
    }, String(record.wrappedKey));
    expect(opensWithOtherKey).toBe(false);

    // A new tab of the same browser has its own sessionStorage: it asks for the master password.
    const second = await context.newPage();
    await second.goto('/vault');
    await unlockForm(second).waitFor();
    await second.close();

    await context.close();
  });

  it('with "Lock on every reload" on, a reload shows Unlock, and nothing is kept', async () => {
    const account = newAccount('reloadlock');
    const context = await e2e.newContext();
    const page = await context.newPage();
    await signUpViaApi(e2e.server, e2e.smtp, account);
    await signIn(page, account.username, account.password);
    await page.goto('/profile');
    const toggle = page.getByRole('switch', { name: 'Lock on every reload' });
    await toggle.check();
    expect(await toggle.isChecked()).toBe(true);

    await page.goto('/vault');
    await unlockForm(page).waitFor();
    await unlockForm(page).fill(account.password);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await vaultHeading(page).waitFor();
    await page.getByText(/You haven't saved any passwords yet/).waitFor();
    const stored = await tabStorage(page);
    expect(stored.keys).toEqual([]);
    expect(stored.session['lockit.reloadVault']).toBeUndefined();

    await page.reload();
    await unlockForm(page).waitFor();
    await context.close();
  });

  it('the idle lock still locks a reloaded tab, and a reload after it stays locked', async () => {
    const account = newAccount('reloadidle');
    const context = await e2e.newContext();
    const page = await context.newPage();
    await signUpViaApi(e2e.server, e2e.smtp, account);
    await page.clock.install();
    await signIn(page, account.username, account.password);
    // The tab key is stored a moment after the unlock (IndexedDB); a person takes longer than that.
    await expect.poll(async () => (await tabStorage(page)).keys.length).toBe(1);
    await page.goto('/profile');
    await page.getByRole('combobox', { name: 'Auto-lock after' }).selectOption({ label: '1 minute' });
    await page.goto('/vault');
    await page.getByText(/You haven't saved any passwords yet/).waitFor();

    await page.clock.fastForward(61_000);
    await unlockForm(page).waitFor();
    expect((await tabStorage(page)).keys).toEqual([]);
    await page.reload();
    await unlockForm(page).waitFor();
    await context.close();
  });

  it('signing in offline says so at once instead of waiting forever', async () => {
    const account = newAccount('offline');
    const context = await e2e.newContext();
    const page = await context.newPage();
    await signUpViaApi(e2e.server, e2e.smtp, account);
    await page.goto('/signin');
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'You are offline. Please sign in again when your network is back.' })
      .waitFor({
        timeout: 5_000,
      });
    expect(await page.getByText('Unlocking your vault…').count()).toBe(0);

    await context.setOffline(false);
    await submitSignIn(page, account.username, account.password);
    await page.waitForURL('**/home');
    await context.close();
  });
});
