import { Secret, TOTP } from 'otpauth';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Account } from './journeys';

/** The code an authenticator app shows for `secret` at `at` (Lockit's parameters: SHA-1, 6 digits, 30 s). */
export function totpCode(secret: string, at: number): string {
  return new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({
    timestamp: at,
  });
}

/**
 * Turns the authenticator app on from Profile: master password, then the code of the setup
 * key the dialog shows. Returns the key and the 10 recovery codes the next dialog shows once.
 */
export async function enableTotp(
  page: Page,
  account: Account,
  options: { fitsWidth?: number } = {},
): Promise<{ secret: string; recoveryCodes: string[] }> {
  await page.goto('/profile');
  const section = page.getByRole('region', { name: 'Two-step sign-in' });
  await section.getByText('Authenticator app: Off').waitFor();
  await section.getByRole('button', { name: 'Set up an authenticator app' }).click();

  const password = page.getByRole('dialog', { name: 'Set up an authenticator app' });
  await password.getByLabel('Master password', { exact: true }).fill(account.password);
  await password.getByRole('button', { name: 'Continue' }).click();

  const setup = page.getByRole('dialog', { name: 'Set up an authenticator app' });
  await setup.getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
  const secret = (await setup.getByLabel('Setup key').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  if (options.fitsWidth !== undefined) await expectFits(setup, options.fitsWidth);
  await setup.getByLabel('Code from the app').fill(totpCode(secret, Date.now()));
  await setup.getByRole('button', { name: 'Turn on' }).click();

  const recoveryCodes = await keepRecoveryCodes(page, options);
  await section.getByText('Authenticator app: On').waitFor();
  await section.getByText('Recovery codes left: 10').waitFor();
  return { secret, recoveryCodes };
}

/** Nothing of the page, nor of `dialog`'s own content, is wider than `width` pixels. */
export async function expectFits(dialog: Locator, width: number): Promise<void> {
  const sizes = await dialog.evaluate((element) => {
    const panel = element as HTMLElement;
    return {
      page: document.documentElement.scrollWidth,
      right: panel.getBoundingClientRect().right,
      overflow: panel.scrollWidth - panel.clientWidth,
    };
  });
  expect(sizes.page).toBeLessThanOrEqual(width);
  expect(sizes.right).toBeLessThanOrEqual(width);
  expect(sizes.overflow).toBeLessThanOrEqual(0);
}

/**
 * Reads the recovery codes shown once after the account's first factor is added (optionally
 * checking the dialog fits `fitsWidth`), then closes their dialog.
 */
export async function keepRecoveryCodes(page: Page, options: { fitsWidth?: number } = {}): Promise<string[]> {
  const dialog = page.getByRole('dialog', { name: 'Your recovery codes' });
  const items = dialog.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await items.first().waitFor();
  const codes = (await items.allInnerTexts()).map((code) => code.trim());
  if (options.fitsWidth !== undefined) await expectFits(dialog, options.fitsWidth);
  await dialog.getByRole('button', { name: 'I have saved them' }).click();
  await dialog.waitFor({ state: 'hidden' });
  return codes;
}
