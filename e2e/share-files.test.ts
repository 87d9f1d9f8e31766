import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useE2e } from './support/setup';
import { newAccount, signIn, signUpViaApi } from './support/journeys';
import { filesOf, openItemFiles } from './support/files-section';
import { addEntry, openVault } from './support/vault-page';

/** Shared files (decision 0081): sealed in the owner's browser, checked and saved in a stranger's. */
const e2e = useE2e();
const shots = process.env.LOCKIT_E2E_SCREENSHOTS;
const PHONE_390 = { width: 390, height: 844 };

const details = (page: Page) => page.getByRole('region', { name: 'Entry details' }).or(page.getByLabel('Entry details'));
const shareSection = (page: Page) => details(page).getByRole('region', { name: 'Share' });

/** A stranger's browser: no account, and no save picker, so a checked file goes to the downloads. */
async function strangerContext(viewport?: { width: number; height: number }): Promise<BrowserContext> {
  const context = await e2e.newContext(viewport ? { viewport } : {});
  await context.addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
  return context;
}

async function createLink(page: Page, password: string): Promise<string> {
  if (password !== '') await shareSection(page).getByLabel('Password (optional)').fill(password);
  await shareSection(page).getByRole('button', { name: 'Create link' }).click();
  const field = shareSection(page).getByLabel('Share link');
  await field.waitFor({ timeout: 60_000 });
  const link = await field.inputValue();
  if (shots) await page.screenshot({ path: `${shots}/share-file-link-1280.png` });
  await shareSection(page).getByRole('button', { name: 'Done' }).click();
  return link;
}

/** Opens `link` as a stranger and downloads its file; the saved bytes. */
async function receive(context: BrowserContext, link: string, password: string, name: string, shot?: string): Promise<Buffer> {
  const page = await context.newPage();
  await page.goto(link);
  if (password !== '') await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await page.getByText(name).waitFor({ timeout: 30_000 });
  if (shot) await page.screenshot({ path: shot, fullPage: true });
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
  expect(download.suggestedFilename()).toBe(name);
  await page.getByText('Downloaded and checked').waitFor({ timeout: 30_000 });
  if (shot) await page.screenshot({ path: shot.replace('.png', '-done.png'), fullPage: true });
  return readFile((await download.path())!);
}

describe('Shared files in the browser', () => {
  it('shares a 3 MB file from disk with a password and an item’s file without one; strangers get the same bytes, once', async () => {
    const account = newAccount('sharefile');
    await signUpViaApi(e2e.server, e2e.smtp, account);
    const context = await e2e.newContext();
    const page = await context.newPage();
    await signIn(page, account.username, account.password);
    await openVault(page);
    await addEntry(page, { service: 'Project Atlas', username: 'ada', password: 'atl4s!' });
    await openItemFiles(page, 'Project Atlas');

    // A file from disk, with a password, one opening.
    const big = randomBytes(3 * 1024 * 1024 + 12_345);
    await shareSection(page).getByRole('button', { name: 'Share' }).click();
    await shareSection(page).getByRole('radio', { name: 'A file' }).check();
    await shareSection(page).getByLabel('File', { exact: true }).setInputFiles({
      name: 'atlas-design.pdf',
      mimeType: 'application/pdf',
      buffer: big,
    });
    if (shots) {
      await shareSection(page).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${shots}/share-file-dialog-1280.png` });
    }
    const withPassword = await createLink(page, 'tulip-42');
    const list = shareSection(page).getByRole('list', { name: 'Shared links' });
    await list.getByText('File atlas-design.pdf').waitFor();
    // The owner sees the file's size, told from the sealed size the server counts.
    await list.getByText('a file of 3 MB').waitFor();
    if (shots) await list.screenshot({ path: `${shots}/share-file-owner-list-1280.png` });

    const stranger = await strangerContext(PHONE_390);
    const saved = await receive(
      stranger,
      withPassword,
      'tulip-42',
      'atlas-design.pdf',
      shots && `${shots}/share-file-recipient-390.png`,
    );
    expect(Buffer.compare(saved, big)).toBe(0);
    // One opening allowed: the second is refused before anything is fetched.
    const again = await stranger.newPage();
    await again.goto(withPassword);
    await again.getByRole('alert').getByText('This link has been opened as many times as allowed.').waitFor();
    expect(await again.getByRole('button', { name: 'Open', exact: true }).count()).toBe(0);
    await stranger.close();

    // One of the item's files, shared from the file list, without a password.
    const attached = randomBytes(600_000);
    await filesOf(page)
      .getByLabel('Choose a file to attach')
      .setInputFiles({ name: 'floor plan.png', mimeType: 'image/png', buffer: attached });
    await filesOf(page).getByRole('listitem', { name: 'floor plan.png' }).waitFor();
    await filesOf(page).getByRole('button', { name: 'Share floor plan.png' }).click();
    await expect.poll(() => shareSection(page).getByRole('radio', { name: 'floor plan.png' }).isChecked()).toBe(true);
    // Done cleared the last link's password: this one has none.
    await expect.poll(() => shareSection(page).getByLabel('Password (optional)').inputValue()).toBe('');
    const noPassword = await createLink(page, '');
    const other = await strangerContext();
    expect(Buffer.compare(await receive(other, noPassword, '', 'floor plan.png'), attached)).toBe(0);
    await other.close();
    await context.close();
  }, 180_000);
});
