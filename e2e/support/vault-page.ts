import type { Page } from 'playwright-core';
import { header } from './journeys';

/** What a person types into the Add New Password dialog; url and notes are optional. */
export interface TypedEntry {
  service: string;
  username: string;
  password: string;
  url?: string;
  notes?: string;
}

export const savedList = (page: Page) => page.getByRole('list', { name: 'Saved passwords' });
export const entryRows = (page: Page) => savedList(page).getByRole('listitem');
export const rowOf = (page: Page, service: string) => entryRows(page).filter({ has: page.getByText(service, { exact: true }) });

/** Opens the vault from the header and waits for its heading. */
export async function openVault(page: Page): Promise<void> {
  await header(page).getByRole('link', { name: 'Vault' }).first().click();
  await page.getByRole('heading', { name: 'Your Password Vault' }).waitFor();
}

/** Adds an entry through the Add New Password dialog and waits for its row. */
export async function addEntry(page: Page, entry: TypedEntry): Promise<void> {
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New Password' });
  await dialog.getByLabel('Service').fill(entry.service);
  await dialog.getByLabel('Username').fill(entry.username);
  await dialog.getByLabel('Password', { exact: true }).fill(entry.password);
  if (entry.url !== undefined) await dialog.getByLabel('URL (optional)').fill(entry.url);
  if (entry.notes !== undefined) await dialog.getByLabel('Notes (optional)').fill(entry.notes);
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  await rowOf(page, entry.service).waitFor();
}
