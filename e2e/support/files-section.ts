import type { Page } from 'playwright-core';
import { rowOf } from './vault-page';

const details = (page: Page) => page.getByRole('region', { name: 'Entry details' }).or(page.getByLabel('Entry details'));

/** The open item's Files section. */
export const filesOf = (page: Page) => details(page).getByRole('region', { name: 'Files' });

/** Opens the item of `service` and waits until its files are listed. */
export async function openItemFiles(page: Page, service: string) {
  await rowOf(page, service).getByRole('button', { name: service, exact: true }).click();
  await filesOf(page).waitFor();
  await filesOf(page).getByText('Loading files…').waitFor({ state: 'detached' });
}
