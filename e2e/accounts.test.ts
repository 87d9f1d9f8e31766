import { describe, expect, it } from 'vitest';
import { useE2e } from './support/setup';
import { header, signIn, signUpAndVerify, submitSignIn, changeMasterPassword } from './support/journeys';

const e2e = useE2e();

describe('accounts in a real browser', () => {
  it('signs up with the mailed code, manages the profile, changes the password and deletes the account', async () => {
    const context = await e2e.newContext();
    const errors = e2e.errors;
    const page = await context.newPage();
    const username = `ada${Date.now() % 100000}`;
    const email = `${username}@example.test`;
    const firstPassword = 'correct horse battery staple';
    const secondPassword = 'an even longer passphrase 42';

    await page.goto('/signup');
    await page
      .getByText(/cannot recover|can't recover|cannot be recovered/i)
      .first()
      .waitFor();
    await signUpAndVerify(page, e2e.smtp, { fullname: 'Ada Lovelace', username, email, password: firstPassword });

    await signIn(page, username, firstPassword);
    await header(page).getByRole('link', { name: 'Profile' }).first().waitFor();
    expect(await header(page).getByRole('button', { name: 'Logout' }).count()).toBeGreaterThan(0);
    expect(await header(page).getByRole('link', { name: 'Sign In' }).count()).toBe(0);

    await header(page).getByRole('link', { name: 'Profile' }).first().click();
    await page.getByText(email).waitFor();
    const renamed = `${username}x`;
    await page.getByRole('button', { name: /edit username/i }).click();
    await page.getByLabel(/new username/i).fill(renamed);
    await page.getByRole('button', { name: 'Update Username' }).click();
    await page.getByText(renamed, { exact: true }).waitFor();

    expect(await changeMasterPassword(page, firstPassword, secondPassword)).toBe('✅ Password updated successfully');

    await page.getByRole('main').getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/signin');

    // The old password no longer opens the account; the new one does.
    await submitSignIn(page, renamed, firstPassword);
    await page.getByText('Invalid username or password.').waitFor();
    await signIn(page, renamed, secondPassword);

    await header(page).getByRole('link', { name: 'Profile' }).first().click();
    await page.getByRole('button', { name: 'Delete Account' }).click();
    await page.getByText('Are you sure you want to permanently delete your account?').waitFor();
    await page.getByRole('button', { name: 'Yes, Delete' }).click();
    await page.waitForURL('**/signup');

    // The account is gone: signing in with it fails.
    await submitSignIn(page, renamed, secondPassword);
    await page.getByText('Invalid username or password.').waitFor();

    expect(errors).toEqual([]);
    await context.close();
  });
});
