import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useE2e } from './support/setup';
import { newAccount, signIn, signUpViaApi } from './support/journeys';
import { addEntry, openVault, rowOf } from './support/vault-page';

const e2e = useE2e();

const details = (page: Page) => page.getByRole('region', { name: 'Entry details' }).or(page.getByLabel('Entry details'));
const shareSection = (page: Page) => details(page).getByRole('region', { name: 'Share' });

async function makeLink(page: Page, password: string): Promise<string> {
  await shareSection(page).getByRole('button', { name: 'Share' }).click();
  await shareSection(page).getByLabel('Password (optional)').fill(password);
  await shareSection(page).getByRole('button', { name: 'Create link' }).click();
  const field = shareSection(page).getByLabel('Share link');
  await field.waitFor({ timeout: 20_000 });
  const link = await field.inputValue();
  await shareSection(page).getByRole('button', { name: 'Done' }).click();
  return link;
}

describe('Share links in the browser', () => {
  it('a stranger opens a password link once; the second opening is refused; a revoked link opens for nobody', async () => {
    const account = newAccount('share');
    await signUpViaApi(e2e.server, e2e.smtp, account);
    const context = await e2e.newContext();
    const page = await context.newPage();
    await signIn(page, account.username, account.password);
    await openVault(page);
    await addEntry(page, { service: 'Guest Wifi', username: 'guest', password: 'c0rrect-h0rse' });
    await rowOf(page, 'Guest Wifi').getByRole('button', { name: 'Guest Wifi', exact: true }).click();
    await shareSection(page).waitFor();

    const link = await makeLink(page, 'tr0ub4dor');
    expect(link).toMatch(/\/share\/[0-9a-f-]{36}#[A-Za-z0-9_-]{43}$/);
    const list = shareSection(page).getByRole('list', { name: 'Shared links' });
    await list.getByText('1 of 1 openings left').waitFor();
    // The owner's label, sealed under the vault key, says what the link shares.
    await list.getByText('Copy of Guest Wifi').waitFor();

    const stranger = await e2e.newContext();
    const recipient = await stranger.newPage();
    await recipient.goto(link);
    await recipient.getByRole('button', { name: 'Open' }).waitFor();
    await recipient.getByLabel('Password').fill('tr0ub4dor');
    await recipient.getByRole('button', { name: 'Open' }).click();
    await recipient.getByText('c0rrect-h0rse').waitFor({ timeout: 20_000 });

    const again = await stranger.newPage();
    await again.goto(link);
    await again.getByRole('alert').getByText('This link has been opened as many times as allowed.').waitFor();

    const second = await makeLink(page, 'another');
    const revoke = list.getByRole('button', { name: /^Revoke link / });
    await list.getByText('1 of 1 openings left').waitFor();
    await revoke.first().click();
    await shareSection(page).getByText('Link revoked.').waitFor();
    const late = await stranger.newPage();
    await late.goto(second);
    await late.getByRole('alert').getByText('No share link with that id. It may have been revoked.').waitFor();
    expect(await late.getByRole('button', { name: 'Open' }).count()).toBe(0);
    await stranger.close();
    await context.close();
  }, 120_000);
});
