import type { Locator, Page } from 'playwright-core';
import { readVaultLoad, timeToFrame, type ShownTimes, type VaultLoad } from './page-probes';

/**
 * The vault driven as a person drives it, through the labels of the built app (the same
 * locators as e2e/vault.test.ts), with the timings read in the page by page-probes.
 */

/** The sign-in form; a success shows its message and then goes to /home. */
export async function signInThroughUi(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/signin');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL('**/home');
}

/** A client-side navigation: the vault key the sign-in put in memory is still held. */
export async function openVaultFromHeader(page: Page): Promise<VaultLoad> {
  await page.getByRole('banner').getByRole('link', { name: 'Vault' }).first().click();
  return readVaultLoad(page, 'load-start');
}

/**
 * A full page load with "Lock on every reload" on drops the in-memory key: /vault shows the
 * Unlock form (without it, a reload keeps the vault open: decision 0048).
 */
export async function loadAndUnlock(page: Page, password: string, how: 'goto' | 'reload'): Promise<VaultLoad> {
  await page.evaluate(() => localStorage.setItem('lockit.lockOnReload', 'true'));
  if (how === 'reload') await page.reload();
  else await page.goto('/vault');
  await page.getByLabel('Master Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Unlock', exact: true }).click();
  return readVaultLoad(page, 'submit');
}

/** A pause between keys, as a quick typist leaves, so each key is timed on its own. */
const BETWEEN_KEYS_MS = 120;

/** Types `query` one key at a time; per key, the time to the frame showing its matches. */
export async function timeSearchKeystrokes(page: Page, query: string, matches: (typed: string) => number): Promise<ShownTimes[]> {
  const box = page.getByLabel('Search');
  await box.click();
  const times: ShownTimes[] = [];
  for (let length = 1; length <= query.length; length++) {
    const typed = query.slice(0, length);
    const check = { kind: 'search', query: typed, count: matches(typed) } as const;
    times.push(await timeToFrame(page, 'keydown', check, () => page.keyboard.type(typed.slice(-1))));
    await page.waitForTimeout(BETWEEN_KEYS_MS);
  }
  await box.fill('');
  await page.waitForFunction(
    (count) => {
      const row = document.querySelector('[role="listitem"]');
      return count === 0 ? row === null : row?.getAttribute('aria-setsize') === String(count);
    },
    matches(''),
    { polling: 50 },
  );
  return times;
}

const BARE_SEARCH_PATH = '/bench-bare-search';
const BARE_SEARCH_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bare search field</title></head>
<body><label>Search <input type="search"></label></body></html>`;

/**
 * The ceiling of a search key: a page at the app's origin holding nothing but a labelled
 * search field (served by the browser from the bench, never by the app), where the same keys
 * cost only what the browser itself spends on a key in a text field and its frame.
 */
export async function openBareSearchPage(page: Page): Promise<void> {
  await page.route(`**${BARE_SEARCH_PATH}`, (route) => route.fulfill({ contentType: 'text/html', body: BARE_SEARCH_PAGE }));
  await page.goto(BARE_SEARCH_PATH);
}

const rowOf = (page: Page, service: string): Locator =>
  page
    .getByRole('list', { name: 'Saved passwords' })
    .getByRole('listitem')
    .filter({ has: page.getByText(service, { exact: true }) });

export interface ChangeTimes {
  add: ShownTimes;
  edit: ShownTimes;
  remove: ShownTimes;
}

/**
 * One add, one edit and one delete, each timed from the click on the dialog's confirm button
 * to the first painted frame showing the change. The names sort first and the list is scrolled
 * to its top, so the row is in view.
 */
export async function timeChanges(page: Page, round: number): Promise<ChangeTimes> {
  const added = `Aaa bench ${round}`;
  const edited = `Aab bench ${round}`;
  // Opening items may have scrolled the list (beside the item view its rows take two lines).
  await page.getByTestId('vault-list').evaluate((list) => list.scrollTo(0, 0));

  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const addDialog = page.getByRole('dialog', { name: 'Add New Password' });
  await addDialog.getByLabel('Service').fill(added);
  await addDialog.getByLabel('Username').fill(`bench${round}@example.com`);
  await addDialog.getByLabel('Password', { exact: true }).fill(`bench-Secret-${round}-4242`);
  const add = await timeToFrame(page, 'click', { kind: 'present', text: added }, () =>
    addDialog.getByRole('button', { name: 'Add', exact: true }).click(),
  );
  await addDialog.waitFor({ state: 'hidden' });

  await rowOf(page, added)
    .getByRole('button', { name: `Edit ${added}` })
    .click();
  const editDialog = page.getByRole('dialog', { name: 'Edit Password' });
  await editDialog.getByLabel('Service').fill(edited);
  const edit = await timeToFrame(page, 'click', { kind: 'present', text: edited }, () =>
    editDialog.getByRole('button', { name: 'Save', exact: true }).click(),
  );
  await editDialog.waitFor({ state: 'hidden' });

  const row = rowOf(page, edited);
  const entryId = await row.getAttribute('data-entry-id');
  if (!entryId) throw new Error(`no entry id on the row of ${edited}`);
  await row.getByRole('button', { name: `Delete ${edited}` }).click();
  const deleteDialog = page.getByRole('dialog', { name: 'Delete Password' });
  const remove = await timeToFrame(page, 'click', { kind: 'absent', entryId }, () =>
    deleteDialog.getByRole('button', { name: 'Delete', exact: true }).click(),
  );
  await deleteDialog.waitFor({ state: 'hidden' });
  return { add, edit, remove };
}

/** The filters a filter-switch series clicks, by their button's name, and the list heading each shows. */
export const FILTER_SWITCHES = [
  { button: 'Logins', heading: 'Logins' },
  { button: 'Favourites', heading: 'Favourites' },
  { button: 'Cards', heading: 'Cards' },
  { button: 'Secure notes', heading: 'Secure notes' },
  { button: 'All entries', heading: 'All entries' },
] as const;

/** Per filter of FILTER_SWITCHES: the click on it in the filter column → the frame showing its list. */
export async function timeFilterSwitches(page: Page): Promise<ShownTimes[]> {
  const filters = page.locator('#vault-filters');
  const times: ShownTimes[] = [];
  for (const { button, heading } of FILTER_SWITCHES) {
    const target = filters.getByRole('button', { name: new RegExp(`^${button} \\d`) }).first();
    times.push(await timeToFrame(page, 'click', { kind: 'filter', heading }, () => target.click()));
    await page.waitForTimeout(BETWEEN_KEYS_MS);
  }
  return times;
}

/** Opens the item view of `count` rows in turn (a click on the row's name) → the frame showing it. */
export async function timeOpenItems(page: Page, count: number): Promise<ShownTimes[]> {
  const names = page.getByRole('list', { name: 'Saved passwords' }).locator('[id^="entry-name-"]');
  const times: ShownTimes[] = [];
  for (let i = 0; i < count; i++) {
    const name = names.nth(i + 1);
    const text = (await name.textContent()) ?? '';
    times.push(await timeToFrame(page, 'click', { kind: 'item', name: text }, () => name.click()));
    await page.waitForTimeout(BETWEEN_KEYS_MS);
  }
  return times;
}
