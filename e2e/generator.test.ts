import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newAccount, signIn, signUpViaApi, type Account } from './support/journeys';
import { useE2e } from './support/setup';
import { openVault, rowOf } from './support/vault-page';

const e2e = useE2e();

/** Signs in and opens the vault in a fresh browser profile: the vault key lives only in this tab. */
async function signedInOnVault(account: Account) {
  const context = await e2e.newContext();
  const page = await context.newPage();
  await signIn(page, account.username, account.password);
  await openVault(page);
  return { context, page };
}

const generatedValue = async (scope: Page | ReturnType<Page['getByRole']>) => {
  const box = scope.getByTestId('generated-value');
  await expect.poll(async () => (await box.textContent())?.length ?? 0).toBeGreaterThanOrEqual(20);
  return (await box.textContent())!;
};

describe('password generator', () => {
  it('generates into an Add dialog, saves it as the item’s password, and the history on a second browser shows it', async () => {
    const account = newAccount('gen');
    await signUpViaApi(e2e.server, e2e.smtp, account);

    const { context, page } = await signedInOnVault(account);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Password' });
    await dialog.getByLabel('Service', { exact: true }).fill('Generated Site');
    await dialog.getByLabel('Username', { exact: true }).fill('ada');
    await dialog.getByRole('button', { name: 'Generate' }).click();
    const generator = dialog.getByRole('group', { name: 'Password generator' });
    const started = Date.now();
    const generated = await generatedValue(generator);
    expect(Date.now() - started).toBeLessThan(5_000);
    // One click: the field holds the generated value, and the generator stays open.
    await expect.poll(() => dialog.getByLabel('Password', { exact: true }).inputValue()).toBe(generated);
    expect(await generator.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });

    const row = rowOf(page, 'Generated Site');
    await row.getByRole('button', { name: 'Show password for Generated Site' }).click();
    await row.getByText(generated, { exact: true }).waitFor();

    // Another browser of the same account: the history came with the account, encrypted.
    const second = await signedInOnVault(account);
    await second.page.getByRole('navigation', { name: 'Vault tools' }).getByRole('link', { name: 'Generator' }).click();
    await second.page.getByRole('heading', { name: 'Password Generator' }).waitFor();
    const history = second.page.getByRole('region', { name: 'History' });
    await history.getByRole('button', { name: 'Show passwords' }).click();
    const item = history.getByRole('listitem').filter({ hasText: generated });
    await item.waitFor();
    await item.getByText('for Generated Site').waitFor();

    // Copying on the page records a new password, newest first, on the first browser too.
    const next = await generatedValue(second.page);
    await second.page.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect.poll(() => history.getByTestId('history-value').first().textContent()).toBe(next);
    expect(await second.page.evaluate(() => navigator.clipboard.readText())).toBe(next);

    await second.context.close();
    await context.close();
  });

  it('works signed out, saying that settings stay in this browser and no history is kept', async () => {
    const context = await e2e.newContext();
    const page = await context.newPage();
    await page.goto('/generator');
    await page.getByText(/You are not signed in: these settings are remembered only in this browser/).waitFor();
    await page.getByLabel('Passphrase', { exact: true }).check();
    // Five capitalised words of the EFF list joined by dashes, one with a digit.
    await expect.poll(() => page.getByTestId('generated-value').textContent()).toMatch(/^[A-Z][a-z-]*\d?(-[A-Z][a-z-]*\d?){4,}$/);
    await page.getByText('70 bits').waitFor();
    await page.reload();
    await expect.poll(() => page.getByLabel('Passphrase', { exact: true }).isChecked()).toBe(true);
    expect(await page.getByRole('region', { name: 'History' }).count()).toBe(0);
    await context.close();
  });
});
