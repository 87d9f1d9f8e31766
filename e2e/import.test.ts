import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import {
  addSealed,
  createVerifiedAccount,
  loginOverview,
  openWireItem,
  sealItem,
  type VerifiedAccount,
} from '@lockit/test-support';
import { PHONE } from '@lockit/test-support/chromium';
import { parseImport, type ImportFormatId } from '@lockit/transfer';
import { EXPECTED_LOGINS } from '@lockit/transfer/expected-logins';
import { signIn } from './support/journeys';
import { useE2e } from './support/setup';
import { entryRows, rowOf } from './support/vault-page';

const e2e = useE2e();

/** The repository's own made-up vault in Bitwarden's JSON format: 12 logins and 2 notes. */
const BITWARDEN_JSON = new URL('../packages/transfer/test/fixtures/twelve-bitwarden.json', import.meta.url);

/** Its 12 logins, [name, username, password]. */
const FILE_LOGINS: Array<[string, string, string]> = EXPECTED_LOGINS.map(({ name, username, password }) => [
  name,
  username,
  password,
]);

/** What opens a file that is locked: its password, and the key file beside it if it needs one. */
interface FileKey {
  password: string;
  keyFile?: string;
}

/** The password of the KDBX 2 fixtures (packages/transfer/test/fixtures/SOURCES.md). */
const KDBX2_PASSWORD = 'correct horse battery staple';

/**
 * One file of each newer format (the repository's own fixtures, shaped like the real exports),
 * the format it is detected as, and what opens it when it is locked.
 */
const NEW_FORMATS: Array<[string, ImportFormatId, FileKey?]> = [
  ['nordpass.csv', 'nordpass-csv'],
  ['enpass.json', 'enpass-json'],
  ['keeper.json', 'keeper-json'],
  ['onepassword.1pif', '1pif'],
  ['keepassx-0.4.xml', 'keepassx-xml'],
  ['roboform.csv', 'roboform-csv'],
  ['dashlane-payments.csv', 'dashlane-payments-csv'],
  ['dashlane-ids.csv', 'dashlane-ids-csv'],
  ['dashlane-securenotes.csv', 'dashlane-notes-csv'],
  ['bitwarden-organization.csv', 'bitwarden-csv'],
  ['kdbx2.kdbx', 'kdbx', { password: KDBX2_PASSWORD }],
  ['kdbx2-keyfile.kdbx', 'kdbx', { password: KDBX2_PASSWORD, keyFile: 'kdbx2-keyfile.key' }],
];

const fixture = (name: string) => new URL(`../packages/transfer/test/fixtures/${name}`, import.meta.url);

/** Two logins the person saved before: the same sites and user names as two of the file's, under other names. */
const ALREADY_SAVED = [
  { serviceName: 'My Fediverse', username: 'ulvhart', password: 'saved-before-1', url: 'https://fediverse.test/about' },
  { serviceName: 'My Chirper', username: 'ulvhart', password: 'saved-before-2', url: 'https://www.chirper.test/login' },
];

async function accountWithTwoLogins(): Promise<VerifiedAccount> {
  const account = await createVerifiedAccount(e2e.server.url, e2e.smtp.inbox);
  await addSealed(account.client, ALREADY_SAVED.length, (n) => {
    const { serviceName, username, password, url } = ALREADY_SAVED[n]!;
    return sealItem(account.vaultKey, { serviceName, username, password, overview: loginOverview({ urls: [url] }) });
  });
  return account;
}

/** Every entry of the account (Trash included) as the server holds it, opened with the vault key. */
async function storedNames(account: VerifiedAccount): Promise<string[]> {
  const answer = await account.client.expect<{ data: Array<Record<string, unknown>> }>(200, 'GET', apiPaths.listEntries);
  const names = await Promise.all(
    answer.data.map(async (wire) => (await openWireItem(account.vaultKey, wire)).serviceName ?? ''),
  );
  return names.sort();
}

async function signedIn(account: VerifiedAccount, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await (await e2e.newContext(viewport ? { viewport } : {})).newPage();
  await signIn(page, account.account.username, account.account.password);
  return page;
}

/** /vault/import loaded afresh: the gate asks to unlock where the tab kept no vault (decision 0048). */
async function openImportPage(page: Page, masterPassword: string): Promise<void> {
  await page.goto('/vault/import');
  const unlock = page.getByRole('heading', { name: 'Unlock' });
  const picker = page.getByText('Drop an export file here, or');
  await unlock.or(picker).waitFor();
  if (await unlock.isVisible()) {
    await page.getByLabel('Master Password', { exact: true }).fill(masterPassword);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await picker.waitFor();
  }
}

const fileInput = (page: Page) => page.getByLabel('Choose a file');
/** The number the preview shows for one type of item. */
const counted = (page: Page, type: string) =>
  page.getByLabel('What will be imported').locator(`xpath=.//dt[normalize-space()="${type}"]/following-sibling::dd[1]`);

async function pickAndPreview(page: Page, file: string): Promise<void> {
  await fileInput(page).setInputFiles(file);
  await expect.poll(() => page.getByLabel('Format', { exact: true }).inputValue()).toBe('bitwarden-json');
  await page.getByRole('button', { name: 'Show preview' }).click();
  await page.getByRole('heading', { name: /^Preview: / }).waitFor();
}

async function expectNoAxeViolations(page: Page, state: string) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const found = result.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
  expect(found, `axe on ${state}`).toEqual([]);
}

describe('import', () => {
  it('imports a Bitwarden file with two duplicates as one batch, shows the items, and undoes it', async () => {
    const account = await accountWithTwoLogins();
    const page = await signedIn(account);
    await openImportPage(page, account.account.password);
    await pickAndPreview(page, BITWARDEN_JSON.pathname);

    // The preview: with duplicates skipped, 10 new logins and the 2 notes; the two matches named.
    expect(await counted(page, 'Logins').innerText()).toBe('10');
    expect(await counted(page, 'Secure notes').innerText()).toBe('2');
    expect(await counted(page, 'Cards').innerText()).toBe('0');
    expect(await counted(page, 'Identities').innerText()).toBe('0');
    await page.getByText('12 new items, 0 updated, 2 duplicates skipped, 0 rows skipped.').waitFor();
    await page.getByRole('heading', { name: '2 look like items already in your vault' }).waitFor();
    const duplicates = page.getByRole('list', { name: 'Duplicates' }).getByRole('listitem');
    expect((await duplicates.allInnerTexts()).map((text) => text.split('\n')[0]!.trim()).sort()).toEqual([
      'chirper.test (ulvhart)',
      'fediverse.test (ulvhart)',
    ]);
    // harbor bank's two Bitwarden fields are kept as custom fields.
    expect((await page.getByRole('list', { name: 'Custom fields' }).getByRole('listitem').allInnerTexts()).sort()).toEqual([
      'oldpin (1)',
      'pin (1)',
    ]);
    await expectNoAxeViolations(page, 'the preview');

    // "Keep both" for all counts them as new; back to "Skip" before importing.
    await page.getByLabel('For all of them:').selectOption({ label: 'Keep both' });
    await page.getByText('14 new items, 0 updated, 0 duplicates skipped, 0 rows skipped.').waitFor();
    await page.getByLabel('For all of them:').selectOption({ label: 'Skip' });
    await page.getByRole('button', { name: 'Import 12 items' }).click();

    await page.getByRole('heading', { name: 'Import complete' }).waitFor({ timeout: 60_000 });
    await page.getByText(/^12 items imported from /).waitFor();
    await page.getByRole('button', { name: 'Undo import', exact: true }).waitFor();

    // The vault, filtered by the import's tag: the 12 new items, the hosting.test pair still two.
    await page.getByRole('link', { name: 'Show the imported items' }).click();
    await page.getByRole('heading', { name: 'Your Password Vault' }).waitFor();
    // The list is virtual: its rows carry the whole count, and search brings a name into view.
    const listed = () => entryRows(page).first().getAttribute('aria-setsize');
    await expect.poll(listed, { timeout: 20_000 }).toBe('12');
    for (const name of ['harbor bank', 'mira@oakfern.test', 'empty entry']) await rowOf(page, name).waitFor();
    expect(await rowOf(page, 'My Fediverse').count()).toBe(0);
    const search = page.getByLabel('Search', { exact: true });
    await search.fill('hosting.test');
    await expect.poll(listed).toBe('2');
    expect(await rowOf(page, 'hosting.test').count()).toBe(2);
    await search.fill('note');
    await rowOf(page, 'note').waitFor();

    // The backslash password comes across exactly.
    await search.fill('oakfern');
    await expect.poll(listed).toBe('1');
    const backslash = rowOf(page, 'mira@oakfern.test');
    await backslash.getByRole('button', { name: 'Show password for mira@oakfern.test' }).click();
    const [, , backslashPassword] = FILE_LOGINS.find(([name]) => name === 'mira@oakfern.test')!;
    expect(backslashPassword).toContain('\\');
    await backslash.getByText(backslashPassword, { exact: true }).waitFor();
    await search.fill('');

    // What the server holds: the two saved before and the 12 new, nothing else.
    const imported = [...FILE_LOGINS.map(([name]) => name).filter((name) => !['fediverse.test', 'chirper.test'].includes(name))];
    expect(await storedNames(account)).toEqual([...imported, 'My Chirper', 'My Fediverse', 'empty entry', 'note'].sort());

    // Undo from the import page's recent imports: the import is gone, the two saved before stay.
    await page.getByRole('link', { name: 'Import', exact: true }).first().click();
    await page
      .getByRole('button', { name: /^Undo import of 12 items from / })
      .first()
      .click();
    await page.getByRole('status').filter({ hasText: 'Import undone: 12 items removed.' }).waitFor();
    await expect.poll(() => page.getByRole('heading', { name: 'Recent imports' }).count()).toBe(0);
    expect(await storedNames(account)).toEqual(['My Chirper', 'My Fediverse']);
    // Loaded afresh in the same tab, the vault stays open (decision 0048) and lists what is left.
    await page.goto('/vault');
    await rowOf(page, 'My Fediverse').waitFor();
    await rowOf(page, 'My Chirper').waitFor();
    await expect.poll(() => entryRows(page).first().getAttribute('aria-setsize')).toBe('2');
  });

  it('brings in one file of each format people move from, detected by content, every item landing in the vault', async () => {
    const account = await createVerifiedAccount(e2e.server.url, e2e.smtp.inbox);
    const page = await signedIn(account);
    const expected = new Set<string>();
    for (const [file, format, key] of NEW_FORMATS) {
      const path = fixture(file);
      const keyFile = key?.keyFile === undefined ? undefined : new Uint8Array(await readFile(fixture(key.keyFile)));
      const parsed = await parseImport({ name: file, bytes: new Uint8Array(await readFile(path)) }, format, {
        password: key?.password,
        keyFile,
      });
      expect(parsed.items.length, file).toBeGreaterThan(0);
      for (const item of parsed.items) expected.add(item.name);

      await openImportPage(page, account.account.password);
      await fileInput(page).setInputFiles(path.pathname);
      await expect.poll(() => page.getByLabel('Format', { exact: true }).inputValue(), { message: file }).toBe(format);
      await page.getByRole('button', { name: 'Show preview' }).click();
      if (key) {
        // A locked file asks for its password once read; a KeePass key file goes beside it.
        await page.getByLabel('File password', { exact: true }).fill(key.password);
        if (key.keyFile !== undefined) {
          await page.getByLabel('Key file (if the database needs one)').setInputFiles(fixture(key.keyFile).pathname);
          await page.getByText(`Key file: ${key.keyFile}`).waitFor();
        }
        await page.getByRole('button', { name: 'Show preview' }).click();
      }
      await page.getByRole('heading', { name: /^Preview: / }).waitFor({ timeout: 30_000 });
      if (file === NEW_FORMATS[0]![0]) await page.screenshot({ path: '/tmp/import-preview-new-format.png', fullPage: true });
      await page.getByRole('button', { name: /^Import \d+ items$/ }).click();
      await page.getByRole('heading', { name: 'Import complete' }).waitFor({ timeout: 60_000 });
    }
    const stored = new Set(await storedNames(account));
    expect([...expected].filter((name) => !stored.has(name))).toEqual([]);
  });

  it('refuses a truncated file with a clear message and changes nothing', async () => {
    const account = await accountWithTwoLogins();
    const page = await signedIn(account);
    await openImportPage(page, account.account.password);
    const whole = await readFile(BITWARDEN_JSON);
    await fileInput(page).setInputFiles({
      name: 'bitwarden.json',
      mimeType: 'application/json',
      buffer: whole.subarray(0, Math.floor(whole.length / 2)),
    });
    const format = page.getByLabel('Format', { exact: true });
    await format.waitFor();
    if ((await format.inputValue()) === '') await format.selectOption('bitwarden-json');
    await page.getByRole('button', { name: 'Show preview' }).click();
    const message = page.getByRole('status').filter({ hasText: /\S/ });
    await message.waitFor();
    const lines = whole
      .subarray(0, Math.floor(whole.length / 2))
      .toString('utf8')
      .split('\n').length;
    expect(await message.innerText()).toBe(`Line ${lines}: the file is not valid JSON (it may be cut short or edited by hand).`);
    await expect.poll(() => page.getByRole('heading', { name: /^Preview: / }).count()).toBe(0);
    expect(await storedNames(account)).toEqual(['My Chirper', 'My Fediverse']);
  });

  it('fits a phone, from the file to the preview, and passes axe', async () => {
    const account = await accountWithTwoLogins();
    const page = await signedIn(account, PHONE);
    await openImportPage(page, account.account.password);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await pickAndPreview(page, BITWARDEN_JSON.pathname);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.getByRole('button', { name: 'Import 12 items' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/import-phone.png', fullPage: true });
    await expectNoAxeViolations(page, 'the preview on a phone');
  });
});
