import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { addSealed, FLOOR_KDF, loginOverview, sealItem } from '@lockit/test-support';
import { createAccountViaApi, signInViaApi } from './support/hostile';
import { useE2e } from './support/setup';
import { header, newAccount, signIn, signUpViaApi } from './support/journeys';
import { addEntry, entryRows as rows, openVault, rowOf } from './support/vault-page';

const e2e = useE2e();

const entries = [
  { service: 'GitHub Enterprise', username: 'octo-ada', password: 'gh-Secret-4242' },
  { service: 'Mailbox Deluxe', username: 'ada@mailbox.example', password: 'mail-Secret-9191' },
  { service: 'Credit Union', username: 'ada.lovelace.77', password: 'bank-Secret-1010' },
];
const editedPassword = 'bank-Rotated-2020';

const row = rowOf;

/** A new account, signed up, verified and signed in, on its vault; page errors collected. */
async function signedInOnVault(prefix: string) {
  const account = newAccount(prefix);
  const context = await e2e.newContext();
  const errors = e2e.errors;
  const page = await context.newPage();
  await signUpViaApi(e2e.server, e2e.smtp, account);
  await signIn(page, account.username, account.password);
  await openVault(page);
  return { account, context, errors, page };
}

describe('the vault in a real browser', () => {
  it('adds, reveals, copies, edits, deletes, unlocks after a reload, searches, and stores only ciphertext', async () => {
    const { account, context, errors, page } = await signedInOnVault('vault');
    await page.getByText(`You haven't saved any passwords yet. Click "Add" to get started!`).waitFor();

    for (const entry of entries) await addEntry(page, entry);
    await expect.poll(() => rows(page).count()).toBe(3);

    // Masked until revealed; revealing one entry reveals only that one.
    const github = row(page, entries[0]!.service);
    expect(await page.getByText(entries[0]!.password).count()).toBe(0);
    await github.getByRole('button', { name: `Show password for ${entries[0]!.service}` }).click();
    await github.getByText(entries[0]!.password).waitFor();
    expect(await page.getByText(entries[1]!.password).count()).toBe(0);

    // Copy puts the password on the real clipboard and shows the check for a while.
    const mail = row(page, entries[1]!.service);
    await mail.getByRole('button', { name: `Copy password for ${entries[1]!.service}` }).click();
    await mail.getByRole('button', { name: `Password for ${entries[1]!.service} copied` }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(entries[1]!.password);

    // Edit replaces the password.
    const bank = row(page, entries[2]!.service);
    await bank.getByRole('button', { name: `Edit ${entries[2]!.service}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Password' });
    await edit.getByLabel('Password', { exact: true }).fill(editedPassword);
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'hidden' });
    await bank.getByRole('button', { name: `Show password for ${entries[2]!.service}` }).click();
    await bank.getByText(editedPassword).waitFor();

    // Delete asks first.
    await github.getByRole('button', { name: `Delete ${entries[0]!.service}` }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText('Are you sure you want to delete this password?').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await github.waitFor({ state: 'detached' });
    await expect.poll(() => rows(page).count()).toBe(2);

    // With "Lock on every reload" chosen (decision 0048), a reload locks the vault; the master
    // password alone unlocks it, without a new sign-in.
    await page.evaluate(() => localStorage.setItem('lockit.lockOnReload', 'true'));
    await page.reload();
    const unlock = page.getByLabel('Master Password', { exact: true });
    await unlock.waitFor();
    await unlock.fill(account.password);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await row(page, entries[1]!.service).waitFor();
    await expect.poll(() => rows(page).count()).toBe(2);

    // Search filters as you type.
    await page.getByLabel('Search').fill('mailbox');
    await expect.poll(() => rows(page).count(), { timeout: 5_000 }).toBe(1);
    await row(page, entries[1]!.service).waitFor();
    await page.getByLabel('Search').fill('');
    await expect.poll(() => rows(page).count(), { timeout: 5_000 }).toBe(2);

    // Logging out locks everything: /vault shows Access Denied.
    await header(page).getByRole('button', { name: 'Logout' }).first().click();
    await page.waitForURL('**/signin');
    await page.goto('/vault');
    await page.getByText('Access Denied - You must be logged in to access the Password Vault.').waitFor();
    await page.getByRole('button', { name: 'Go to Sign In' }).waitFor();

    expect(errors).toEqual([]);
    await context.close();

    // The database holds none of what was typed, in any column of any table.
    const typed = [account.password, editedPassword, ...entries.flatMap((e) => [e.service, e.username, e.password])];
    const db = new Database(e2e.server.databasePath, { readonly: true });
    try {
      const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as Array<{ name: string }>;
      const dump = tables
        .map(({ name }) => JSON.stringify(db.prepare(`SELECT * FROM "${name}"`).all()))
        .join('\n')
        .toLowerCase();
      expect(dump).toContain(account.username.toLowerCase());
      for (const secret of typed) expect(dump).not.toContain(secret.toLowerCase());
    } finally {
      db.close();
    }
  });

  it("draws each row action's icon, each its own shape, in forced colours too", async () => {
    const { context, errors, page } = await signedInOnVault('icons');
    await addEntry(page, { service: 'Icon Bank', username: 'ada', password: 'icon-Secret-1' });
    const row = rowOf(page, 'Icon Bank');
    await page.mouse.move(0, 0);
    const names = ['Show password for Icon Bank', 'Copy password for Icon Bank', 'Edit Icon Bank', 'Delete Icon Bank'];
    const edit = row.getByRole('button', { name: 'Edit Icon Bank' });
    // Four icons, and the same button without its icon: what a mask that failed to load, or
    // no icon CSS, leaves. Five different pictures, or an icon is missing or wrong.
    const distinctPictures = async () => {
      const shots = await Promise.all(names.map((name) => row.getByRole('button', { name }).screenshot()));
      await edit.evaluate((button) => button.classList.remove('row-icon'));
      shots.push(await edit.screenshot());
      await edit.evaluate((button) => button.classList.add('row-icon'));
      return new Set(shots.map((png) => png.toString('base64'))).size;
    };

    expect(await distinctPictures()).toBe(names.length + 1);
    await page.emulateMedia({ forcedColors: 'active' });
    expect(await distinctPictures()).toBe(names.length + 1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps rows apart when they grow: on a phone, and when a long password is revealed', async () => {
    const { context, errors, page } = await signedInOnVault('rows');
    const long = `long-${'x'.repeat(180)}`;
    await addEntry(page, { service: 'Aardvark Bank', username: 'ada', password: long });
    for (const n of [1, 2, 3, 4])
      await addEntry(page, { service: `Bistro ${n}`, username: `ada${n}`, password: `pw-${n}-Secret` });
    // An add opens the new entry in the item view, beside which rows take two lines: this test is
    // about the rows alone.
    await page.getByRole('complementary', { name: 'Entry details' }).getByRole('button', { name: 'Close' }).click();

    // Every row's box, in list order: each must start where the one above it ends or below.
    const overlaps = () =>
      rows(page).evaluateAll((items) => {
        const boxes = items
          .map((item) => ({ index: Number(item.getAttribute('data-index')), box: item.getBoundingClientRect() }))
          .sort((a, b) => a.index - b.index);
        return boxes.slice(1).filter((row, i) => row.box.top < (boxes[i]?.box.bottom ?? 0) - 0.5).length;
      });
    const heightOf = (service: string) => rowOf(page, service).evaluate((item) => item.getBoundingClientRect().height);

    const wide = await heightOf('Aardvark Bank');
    // Below the small width a row wraps onto two lines: taller than the list's estimate.
    await page.setViewportSize({ width: 375, height: 800 });
    await expect.poll(() => heightOf('Aardvark Bank'), { timeout: 5_000 }).toBeGreaterThan(wide);
    await expect.poll(overlaps, { timeout: 5_000 }).toBe(0);

    const narrow = await heightOf('Aardvark Bank');
    await rowOf(page, 'Aardvark Bank').getByRole('button', { name: 'Show password for Aardvark Bank' }).click();
    await rowOf(page, 'Aardvark Bank').getByText(long).waitFor();
    await expect.poll(() => heightOf('Aardvark Bank'), { timeout: 5_000 }).toBeGreaterThan(narrow);
    await expect.poll(overlaps, { timeout: 5_000 }).toBe(0);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps rows apart on a phone when a search shows, in the rows already there, entries never measured', async () => {
    // Two-line rows (a phone) are taller than the list's estimate; a search key gives the rows
    // in view other entries instead of creating new rows, and must still learn their height.
    const account = newAccount('reuse');
    await createAccountViaApi(e2e.server.url, e2e.smtp, account, FLOOR_KDF);
    const session = await signInViaApi(e2e.server.url, account.username, account.password);
    const cove = (n: number) => `Cove ${String(n).padStart(2, '0')}`;
    await addSealed(session.client, 40, (n) =>
      sealItem(session.vaultKey, {
        serviceName: cove(n),
        username: `sailor${n}`,
        password: `pw-${n}`,
        overview: loginOverview({}),
      }),
    );
    const context = await e2e.newContext();
    const page = await context.newPage();
    await signIn(page, account.username, account.password);
    await openVault(page);
    await rowOf(page, cove(1)).waitFor();
    const oneLine = await rowOf(page, cove(1)).evaluate((item) => item.getBoundingClientRect().height);
    await page.setViewportSize({ width: 375, height: 800 });
    await expect
      .poll(() => rowOf(page, cove(1)).evaluate((item) => item.getBoundingClientRect().height))
      .toBeGreaterThan(oneLine);

    const layout = () =>
      rows(page).evaluateAll((items) => {
        const boxes = items
          .map((item) => ({ index: Number(item.getAttribute('data-index')), box: item.getBoundingClientRect() }))
          .sort((a, b) => a.index - b.index);
        return {
          overlaps: boxes.slice(1).filter((row, i) => row.box.top < (boxes[i]?.box.bottom ?? 0) - 0.5).length,
          gaps: boxes.slice(1).filter((row, i) => row.box.top > (boxes[i]?.box.bottom ?? 0) + 0.5).length,
        };
      });
    expect(await layout()).toEqual({ overlaps: 0, gaps: 0 });
    const firstShown = await rows(page).evaluateAll((items) => items.map((item) => item.getAttribute('data-entry-id')));

    // "3": Cove 03, 13, 23, 30-39: all but the first were below the view, never rendered.
    await page.getByRole('searchbox', { name: 'Search' }).fill('3');
    await rowOf(page, cove(13)).waitFor();
    const nowShown = await rows(page).evaluateAll((items) => items.map((item) => item.getAttribute('data-entry-id')));
    expect(nowShown.filter((id) => !firstShown.includes(id)).length).toBeGreaterThan(3);
    await expect.poll(layout, { timeout: 5_000 }).toEqual({ overlaps: 0, gaps: 0 });
    expect(e2e.errors).toEqual([]);
    await context.close();
  });
});
