import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PHONE } from '@lockit/test-support/chromium';
import { useE2e } from './support/setup';
import { newAccount, signIn, signOut, signUpViaApi, submitSignIn } from './support/journeys';
import { enableTotp, totpCode } from './support/two-factor-page';
import { addEntry, openVault, rowOf } from './support/vault-page';

const e2e = useE2e();

const WRONG_TOTP = 'That code is not right, or was already used. Enter the current code from your authenticator app.';
const SECOND_FACTOR_FAILED_SUBJECT = 'Your master password was used, but the second step failed';
const NEW_SIGN_IN_SUBJECT = 'New sign-in to your Lockit account';

const secondStepHeading = (page: Page) => page.getByRole('heading', { name: 'Two-step sign-in' });

describe('Two-step sign-in with an authenticator app', () => {
  it('a TOTP code signs in; the same code again is refused; a recovery code signs in and says 9 are left', async () => {
    const account = newAccount('totp');
    const context = await e2e.newContext();
    const page = await context.newPage();
    await signUpViaApi(e2e.server, e2e.smtp, account);
    await signIn(page, account.username, account.password);
    await openVault(page);
    await addEntry(page, { service: 'Two-step Mail', username: 'ada', password: 'behind-two-steps' });

    const { secret, recoveryCodes } = await enableTotp(page, account);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    await signOut(page);

    // The password alone no longer opens the account: the second step is asked.
    await submitSignIn(page, account.username, account.password);
    await secondStepHeading(page).waitFor();
    expect(page.url()).toMatch(/\/signin$/);
    // Enrolment used the current step's code, so an app shows the next one first: the server
    // takes one step of drift, and a later step than the last used one.
    const code = totpCode(secret, Date.now() + 30_000);
    await page.getByLabel('Authenticator app code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/home');
    await openVault(page);
    await rowOf(page, 'Two-step Mail').waitFor();
    expect(await page.getByLabel('Master Password', { exact: true }).count()).toBe(0);
    await signOut(page);

    // The very same code string again (the server already used its step): refused, still on the step.
    await submitSignIn(page, account.username, account.password);
    await secondStepHeading(page).waitFor();
    await page.getByLabel('Authenticator app code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').filter({ hasText: WRONG_TOTP }).waitFor();
    await secondStepHeading(page).waitFor();
    expect(page.url()).toMatch(/\/signin$/);

    // A correct password followed by a failed second step is mailed to the owner.
    const failed = await e2e.smtp.waitForMail(account.email, 2);
    expect(failed.subject).toBe(SECOND_FACTOR_FAILED_SUBJECT);
    expect(failed.text).toMatch(/Browser: Chrome \d+/);
    expect(failed.text).toMatch(/Address: (127\.0\.0\.1|::1)/);

    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('status').filter({ hasText: 'Recovery code accepted. You have 9 recovery codes left.' }).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL('**/home');
    await openVault(page);
    await rowOf(page, 'Two-step Mail').waitFor();

    // Used once: Profile counts it, and the same code cannot sign in again.
    await page.goto('/profile');
    await page.getByRole('region', { name: 'Two-step sign-in' }).getByText('Recovery codes left: 9').waitFor();
    await signOut(page);
    await submitSignIn(page, account.username, account.password);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').filter({ hasText: 'That recovery code is not right, or was already used.' }).waitFor();

    // The browser signed in before: no "new sign-in" mail was sent for it; one failure mail per
    // failed pending sign-in (the verification code, then the two failures).
    const subjects = e2e.smtp.mailsTo(account.email).map((mail) => mail.subject);
    expect(subjects).not.toContain(NEW_SIGN_IN_SUBJECT);
    await expect
      .poll(() => e2e.smtp.mailsTo(account.email).filter((mail) => mail.subject === SECOND_FACTOR_FAILED_SUBJECT).length)
      .toBe(2);
    await context.close();
  });

  it('a browser remembered at the second step skips it until Profile forgets remembered browsers', async () => {
    const account = newAccount('totpremember');
    const context = await e2e.newContext();
    const page = await context.newPage();
    await signUpViaApi(e2e.server, e2e.smtp, account);
    await signIn(page, account.username, account.password);
    const { secret } = await enableTotp(page, account);
    await signOut(page);

    await submitSignIn(page, account.username, account.password);
    await secondStepHeading(page).waitFor();
    await page.getByLabel('Remember this browser for 30 days').check();
    await page.getByLabel('Authenticator app code').fill(totpCode(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/home');
    await signOut(page);

    // Remembered: the password alone signs this browser in.
    await signIn(page, account.username, account.password);
    await page.goto('/profile');
    const section = page.getByRole('region', { name: 'Two-step sign-in' });
    await section.getByRole('button', { name: 'Forget remembered browsers' }).click();
    await section
      .getByRole('status')
      .filter({ hasText: 'Every remembered browser will ask for the second step again.' })
      .waitFor();
    await signOut(page);

    await submitSignIn(page, account.username, account.password);
    await secondStepHeading(page).waitFor();
    // Cancel goes back to the password form, with nothing signed in.
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Sign In', exact: true }).waitFor();
    await page.goto('/profile');
    await page.waitForURL('**/signin');
    await context.close();
  });

  it('enrolment and the second step fit a 375 px screen; a new browser that passes it is mailed about', async () => {
    const account = newAccount('totpphone');
    const phone = await e2e.newContext({ viewport: PHONE });
    const page = await phone.newPage();
    await signUpViaApi(e2e.server, e2e.smtp, account);
    await signIn(page, account.username, account.password);
    const { secret, recoveryCodes } = await enableTotp(page, account, { fitsWidth: PHONE.width });
    await signOut(page);

    await submitSignIn(page, account.username, account.password);
    await secondStepHeading(page).waitFor();
    await page.getByRole('button', { name: 'Use a recovery code' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.getByLabel('Authenticator app code').fill(totpCode(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/home');
    await phone.close();

    const laptop = await e2e.newContext();
    const laptopPage = await laptop.newPage();
    await submitSignIn(laptopPage, account.username, account.password);
    await secondStepHeading(laptopPage).waitFor();
    await laptopPage.getByRole('button', { name: 'Use a recovery code' }).click();
    await laptopPage.getByLabel('Recovery code').fill(recoveryCodes[0]!);
    await laptopPage.getByRole('button', { name: 'Verify' }).click();
    await laptopPage.getByRole('button', { name: 'Continue' }).click();
    await laptopPage.waitForURL('**/home');
    // Mail 1 was the verification code; the phone, which signed in first, got no notice.
    const notice = await e2e.smtp.waitForMail(account.email, 2);
    expect(notice.subject).toBe(NEW_SIGN_IN_SUBJECT);
    expect(notice.text).toMatch(/Browser: Chrome \d+/);
    await laptop.close();
  });
});
