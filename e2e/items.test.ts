import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { PHONE } from '@lockit/test-support/chromium';
import { newAccount, signIn, signUpViaApi, type Account } from './support/journeys';
import { expectNoAxeViolations } from './support/axe';
import { useE2e } from './support/setup';
import { openVault, rowOf } from './support/vault-page';

const e2e = useE2e();

/** The seed of RFC 6238's SHA-1 vectors ("12345678901234567890"), in base32. */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

/**
 * RFC 6238 written out here, independent of the app's library: the code a correct
 * authenticator shows at `atMs` for a base32 secret.
 */
function rfc6238(secretBase32: string, atMs: number, digits = 6, period = 30, algorithm = 'sha1'): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of secretBase32) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 1000 / period)));
  const mac = createHmac(algorithm, key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(value).padStart(digits, '0');
}

/** Codes of the step before, at and after now: the page and the test may straddle a step. */
const codesAroundNow = (secret: string) => [-30_000, 0, 30_000].map((shift) => rfc6238(secret, Date.now() + shift));

async function signedInOnVault(account: Account, options: { viewport?: { width: number; height: number } } = {}) {
  const context = await e2e.newContext(options);
  const page = await context.newPage();
  await signIn(page, account.username, account.password);
  if (options.viewport && options.viewport.width < 768) {
    // On a phone the header's links are in the slide-in menu.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Vault' }).click();
    await page.getByRole('heading', { name: 'Your Password Vault' }).waitFor();
  } else await openVault(page);
  return { context, page };
}

async function newPerson(prefix: string): Promise<Account> {
  const account = newAccount(prefix);
  await signUpViaApi(e2e.server, e2e.smtp, account);
  return account;
}

const addDialog = (page: Page) => page.getByRole('dialog').filter({ has: page.getByLabel('Type') });

async function openAdd(page: Page, type: 'Login' | 'Secure note' | 'Card' | 'Identity') {
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = addDialog(page);
  await dialog.getByLabel('Type', { exact: true }).selectOption({ label: type });
  return dialog;
}

async function addCustomField(
  dialog: ReturnType<typeof addDialog>,
  kind: 'text' | 'hidden' | 'yes/no',
  n: number,
  label: string,
  value?: string,
) {
  await dialog.getByRole('button', { name: `Add ${kind} field` }).click();
  await dialog.getByLabel(`Field ${n} label`, { exact: true }).fill(label);
  if (value !== undefined) await dialog.getByLabel(`Field ${n} value`, { exact: true }).fill(value);
}

async function submit(dialog: ReturnType<typeof addDialog>, name: 'Add' | 'Save' = 'Add') {
  await dialog.getByRole('button', { name, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

const details = (page: Page) => page.getByRole('region', { name: 'Entry details' }).or(page.getByLabel('Entry details'));

async function openDetails(page: Page, name: string) {
  await rowOf(page, name).getByText(name, { exact: true }).click();
  await details(page).getByRole('heading', { name }).waitFor();
}

async function qrImageFile(text: string): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'lockit-qr-')), 'seed.png');
  writeFileSync(file, await QRCode.toBuffer(text, { width: 300, margin: 4 }));
  return file;
}

describe('items in a real browser', () => {
  let account: Account;

  it('creates one entry of each type with custom fields and TOTP seeds from a URI and from a QR image', async () => {
    account = await newPerson('items');
    const { page, context } = await signedInOnVault(account);
    await expectNoAxeViolations(page, 'the empty vault');

    // A login with two web addresses, a seed as a whole otpauth:// URI and three custom fields.
    let dialog = await openAdd(page, 'Login');
    await dialog.getByLabel('Service', { exact: true }).fill('Émoji Bank');
    await dialog.getByLabel('Username', { exact: true }).fill('ada@bank.example');
    await dialog.getByLabel('Password', { exact: true }).fill('Bank-Secret-1');
    await dialog.getByLabel('URL (optional)', { exact: true }).fill('https://bank.example/login');
    await dialog.getByRole('button', { name: 'Add another URL' }).click();
    await dialog.getByLabel('URL 2', { exact: true }).fill('https://m.bank.example');
    await dialog
      .getByLabel('One-time code secret (optional)', { exact: true })
      .fill(`otpauth://totp/Bank:ada?secret=${RFC_SECRET}&issuer=Bank`);
    await addCustomField(dialog, 'text', 1, 'Branch', 'Zurich');
    await addCustomField(dialog, 'hidden', 2, 'PIN', '4321');
    await addCustomField(dialog, 'yes/no', 3, 'Paperless');
    await expectNoAxeViolations(page, 'the Add dialog of a login');
    await submit(dialog);

    // A login whose seed comes from a QR image the person picks.
    dialog = await openAdd(page, 'Login');
    await dialog.getByLabel('Service', { exact: true }).fill('Cloud Console');
    await dialog.getByLabel('Username', { exact: true }).fill('ada-cloud');
    await dialog.getByLabel('Password', { exact: true }).fill('Cloud-Secret-2');
    await dialog
      .getByLabel('QR code image', { exact: true })
      .setInputFiles(await qrImageFile(`otpauth://totp/Cloud:ada?secret=${RFC_SECRET}`));
    await expect
      .poll(() => dialog.getByLabel('One-time code secret (optional)', { exact: true }).inputValue())
      .toContain(RFC_SECRET);
    await submit(dialog);

    dialog = await openAdd(page, 'Secure note');
    await dialog.getByLabel('Name', { exact: true }).fill('Cabin Wi-Fi');
    await dialog.getByLabel('Note', { exact: true }).fill('Network: cabin\nKey under the mat');
    await addCustomField(dialog, 'text', 1, 'Router', 'Attic');
    await submit(dialog);

    dialog = await openAdd(page, 'Card');
    await dialog.getByLabel('Name', { exact: true }).fill('Travel Card');
    await dialog.getByLabel('Cardholder name', { exact: true }).fill('Ada Lovelace');
    await dialog.getByLabel('Card number', { exact: true }).fill('4242 4242 4242 4242');
    await dialog.getByLabel('Security code', { exact: true }).fill('123');
    await addCustomField(dialog, 'hidden', 1, 'Card PIN', '9876');
    await submit(dialog);

    dialog = await openAdd(page, 'Identity');
    await dialog.getByLabel('Name', { exact: true }).fill('Passport Identity');
    await dialog.getByLabel('First name', { exact: true }).fill('Ada');
    await dialog.getByLabel('Last name', { exact: true }).fill('Lovelace');
    await addCustomField(dialog, 'text', 1, 'Nickname', 'Countess');
    await submit(dialog);

    for (const name of ['Émoji Bank', 'Cloud Console', 'Cabin Wi-Fi', 'Travel Card', 'Passport Identity'])
      await rowOf(page, name).waitFor();

    // The item view shows every field and the code RFC 6238 gives for now.
    await openDetails(page, 'Émoji Bank');
    const pane = details(page);
    await pane.getByText('Zurich').waitFor();
    await pane
      .getByRole('link', { name: /https:\/\/m\.bank\.example/ })
      .first()
      .waitFor();
    const shownCode = (await pane.getByTestId('totp-code').innerText()).replace(/\D/g, '').slice(0, 6);
    expect(codesAroundNow(RFC_SECRET)).toContain(shownCode);
    await expectNoAxeViolations(page, 'the item view');

    await openDetails(page, 'Cloud Console');
    // Beside the item view the list is narrow: each row gives its name a line of its own, whole.
    const name = rowOf(page, 'Émoji Bank').getByRole('button', { name: 'Émoji Bank', exact: true });
    expect(await name.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    const cloudCode = (await details(page).getByTestId('totp-code').innerText()).replace(/\D/g, '').slice(0, 6);
    expect(codesAroundNow(RFC_SECRET)).toContain(cloudCode);

    // Search ignores case and accents.
    await page.getByLabel('Search', { exact: true }).fill('emoji');
    await rowOf(page, 'Émoji Bank').waitFor();
    await expect.poll(() => rowOf(page, 'Cloud Console').count()).toBe(0);
    await page.getByLabel('Search', { exact: true }).fill('');
    await page.screenshot({ path: 'test-results/items-desktop.png', fullPage: true });
    await context.close();
  });

  it('favourites, a nested folder and a tag filter the list', async () => {
    const { page, context } = await signedInOnVault(account);
    await rowOf(page, 'Émoji Bank').getByRole('button', { name: 'Edit Émoji Bank' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Password' });
    await dialog.getByRole('button', { name: 'New folder', exact: true }).click();
    await dialog.getByLabel('New folder name', { exact: true }).fill('Finance');
    await dialog.getByLabel('New folder name', { exact: true }).press('Enter');
    await dialog.getByRole('button', { name: 'New folder', exact: true }).click();
    await dialog.getByLabel('New folder name', { exact: true }).fill('Finance/Banking');
    await dialog.getByLabel('New folder name', { exact: true }).press('Enter');
    await expect.poll(async () => dialog.getByLabel('Folder').locator('option:checked').innerText()).toBe('Finance/Banking');
    await dialog.getByLabel('Tags', { exact: true }).fill('money');
    await dialog.getByLabel('Tags', { exact: true }).press('Enter');
    await dialog.getByLabel('Favourite', { exact: true }).check();
    await submit(dialog, 'Save');

    const filters = page.getByRole('navigation', { name: 'Filters' }).or(page.getByLabel('Filters')).first();
    await filters.getByRole('button', { name: /Favourites/ }).click();
    await rowOf(page, 'Émoji Bank').waitFor();
    await expect.poll(() => rowOf(page, 'Cabin Wi-Fi').count()).toBe(0);

    // The parent folder shows what its subfolder holds.
    await filters
      .getByRole('button', { name: /^Finance\b/ })
      .first()
      .click();
    await rowOf(page, 'Émoji Bank').waitFor();
    await expect.poll(() => rowOf(page, 'Travel Card').count()).toBe(0);

    await filters.getByRole('button', { name: /money/ }).click();
    await rowOf(page, 'Émoji Bank').waitFor();

    await filters.getByRole('button', { name: /^Cards\b/ }).click();
    await rowOf(page, 'Travel Card').waitFor();
    await expect.poll(() => rowOf(page, 'Émoji Bank').count()).toBe(0);
    await expectNoAxeViolations(page, 'a filtered list');
    await filters.getByRole('button', { name: /^All\b/ }).click();
    await context.close();
  });

  it('edits twice and restores the first version from history', async () => {
    const { page, context } = await signedInOnVault(account);
    for (const password of ['Cloud-Secret-3', 'Cloud-Secret-4']) {
      await rowOf(page, 'Cloud Console').getByRole('button', { name: 'Edit Cloud Console' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit Password' });
      await dialog.getByLabel('Password', { exact: true }).fill(password);
      await submit(dialog, 'Save');
    }
    await openDetails(page, 'Cloud Console');
    await details(page).getByRole('button', { name: 'History' }).click();
    const history = page.getByRole('dialog', { name: /History of Cloud Console/ });
    const versions = history.getByRole('list', { name: 'Earlier versions' }).getByRole('listitem');
    await expect.poll(() => versions.count()).toBe(2);
    await expectNoAxeViolations(page, 'the history');
    // Newest first: the last of them is the first version.
    await versions
      .last()
      .getByRole('button', { name: /Restore/ })
      .click();
    await history.waitFor({ state: 'hidden' });
    const row = rowOf(page, 'Cloud Console');
    await row.getByRole('button', { name: 'Show password for Cloud Console' }).click();
    await row.getByText('Cloud-Secret-2').waitFor();
    await context.close();
  });

  it('deletes to Trash, finds it there and restores it', async () => {
    const { page, context } = await signedInOnVault(account);
    await rowOf(page, 'Cabin Wi-Fi').getByRole('button', { name: 'Delete Cabin Wi-Fi' }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: 'Are you sure you want to delete this password?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => rowOf(page, 'Cabin Wi-Fi').count()).toBe(0);

    const filters = page.getByLabel('Filters').first();
    await filters.getByRole('button', { name: /Trash/ }).click();
    await rowOf(page, 'Cabin Wi-Fi').waitFor();
    await expectNoAxeViolations(page, 'the Trash');
    await rowOf(page, 'Cabin Wi-Fi').getByRole('button', { name: 'Restore Cabin Wi-Fi' }).click();
    await expect.poll(() => rowOf(page, 'Cabin Wi-Fi').count()).toBe(0);
    await filters.getByRole('button', { name: /^All\b/ }).click();
    await rowOf(page, 'Cabin Wi-Fi').waitFor();
    await context.close();
  });

  it('two browsers edit the same entry: the second sees the conflict and both versions stay reachable', async () => {
    const first = await signedInOnVault(account);
    const second = await signedInOnVault(account);

    // Both browsers edit at once: the second's dialog holds the version before the first's save
    // (live sync would otherwise show the first's edit in the second before it opens its dialog).
    await rowOf(second.page, 'Travel Card').getByRole('button', { name: 'Edit Travel Card' }).click();
    const secondDialog = second.page.getByRole('dialog').filter({ has: second.page.getByLabel('Type') });
    await secondDialog.getByLabel('Cardholder name', { exact: true }).fill('A. Lovelace');

    await rowOf(first.page, 'Travel Card').getByRole('button', { name: 'Edit Travel Card' }).click();
    const dialog = first.page.getByRole('dialog').filter({ has: first.page.getByLabel('Type') });
    await dialog.getByLabel('Cardholder name', { exact: true }).fill('Ada King');
    await submit(dialog, 'Save');

    await secondDialog.getByRole('button', { name: 'Save', exact: true }).click();
    const conflict = second.page.getByRole('dialog').filter({ hasText: 'Both versions, field by field' });
    await conflict.getByText('Ada King').waitFor();
    await conflict.getByText('A. Lovelace').first().waitFor();
    await expectNoAxeViolations(second.page, 'the conflict dialog');
    await conflict.getByRole('button', { name: /Keep mine/ }).click();
    await conflict.waitFor({ state: 'hidden' });

    // Mine is current; theirs is in the history.
    await openDetails(second.page, 'Travel Card');
    await details(second.page).getByText('A. Lovelace').waitFor();
    await details(second.page).getByRole('button', { name: 'History' }).click();
    const history = second.page.getByRole('dialog', { name: /History of Travel Card/ });
    // Newest first: the version mine replaced is theirs; restoring it brings "Ada King" back.
    await history
      .getByRole('list', { name: 'Earlier versions' })
      .getByRole('listitem')
      .first()
      .getByRole('button', { name: 'Restore this version' })
      .click();
    await history.waitFor({ state: 'hidden' });
    await details(second.page).getByText('Ada King').waitFor();
    await first.context.close();
    await second.context.close();
  });

  it('copies a user name from the row, and the clipboard is cleared 30 s later', async () => {
    const context: BrowserContext = await e2e.newContext();
    const page = await context.newPage();
    await page.clock.install();
    await signIn(page, account.username, account.password);
    await openVault(page);
    const row = rowOf(page, 'Émoji Bank');
    await row.getByRole('button', { name: 'Copy user name for Émoji Bank' }).click();
    await row.getByRole('button', { name: 'User name for Émoji Bank copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('ada@bank.example');
    await page.clock.fastForward(29_000);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('ada@bank.example');
    await page.clock.fastForward(2_000);
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('');
    await context.close();
  });

  it('works on a phone: the item view, a long revealed password and the filter menu', async () => {
    const { page, context } = await signedInOnVault(account, { viewport: PHONE });
    const long = 'x'.repeat(1000);
    const dialog = await openAdd(page, 'Login');
    await dialog.getByLabel('Service', { exact: true }).fill('Long Password Site');
    await dialog.getByLabel('Username', { exact: true }).fill('ada');
    await dialog.getByLabel('Password', { exact: true }).fill(long);
    await submit(dialog);
    // An add opens the new entry in the item view, which covers the list on a phone: this part is about the row.
    await page.getByRole('complementary', { name: 'Entry details' }).getByRole('button', { name: 'Close' }).click();
    const row = rowOf(page, 'Long Password Site');
    await row.getByRole('button', { name: 'Show password for Long Password Site' }).click();
    await row.getByText(long).waitFor();
    // The row's buttons stay inside the screen.
    const edit = await row.getByRole('button', { name: 'Edit Long Password Site' }).boundingBox();
    expect(edit && edit.x + edit.width).toBeLessThanOrEqual(PHONE.width);
    await expectNoAxeViolations(page, 'the vault on a phone');
    await page.screenshot({ path: 'test-results/items-phone.png', fullPage: true });
    await context.close();
  });
});
