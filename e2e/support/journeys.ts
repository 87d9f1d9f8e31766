import type { Page } from 'playwright-core';
import { DEFAULT_KDF_PARAMS } from '@lockit/crypto';
import { ApiClient, newAccount as keyedAccount, signUpOverHttp, type SmtpSink } from '@lockit/test-support';

export interface Account {
  fullname: string;
  username: string;
  email: string;
  password: string;
}

let counter = 0;
/** A fresh account; names are unique per run so suites can share one server. */
export function newAccount(prefix = 'user'): Account {
  counter += 1;
  const username = `${prefix}${Date.now() % 1_000_000}${counter}`;
  return {
    fullname: 'Ada Lovelace',
    username,
    email: `${username}@example.test`,
    password: `correct horse battery staple ${counter}`,
  };
}

export const header = (page: Page) => page.getByRole('banner');

/** Signs up through the form and verifies with the code read from the real mail. */
export async function signUpAndVerify(page: Page, smtp: SmtpSink, account: Account): Promise<void> {
  await page.goto('/signup');
  await page.getByLabel('Full Name').fill(account.fullname);
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm password', { exact: true }).fill(account.password);
  const code = smtp.inbox.expectCode(account);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  const dialog = page.getByRole('dialog', { name: 'Verify Your Email' });
  await dialog.waitFor();
  await dialog.getByRole('textbox').fill(await code());
  await dialog.getByRole('button', { name: 'Verify Code' }).click();
  await page.getByText('Email verified!').waitFor();
  await page.waitForURL('**/signin', { timeout: 10_000 });
}

/**
 * Signs up and verifies through the API, with the keys the browser would derive under its
 * default settings, for a test whose subject comes after sign-up: the form costs about 5 s a
 * person on 2 busy cores. The form itself is proven by the tests that use signUpAndVerify
 * (accounts, first visit, sign-up modes, the hostile servers).
 */
export async function signUpViaApi(server: { url: string }, smtp: SmtpSink, account: Account): Promise<void> {
  await signUpOverHttp(new ApiClient(server.url), smtp.inbox, await keyedAccount({ ...account, kdf: { ...DEFAULT_KDF_PARAMS } }));
}

/** Fills the sign-in form and submits it, without waiting for the outcome. */
export async function submitSignIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/signin');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** Signs in and waits for the redirect to /home that follows a success. */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await submitSignIn(page, username, password);
  await page.waitForURL('**/home');
}

/**
 * Changes the master password from the open Profile page and answers the text of the alert
 * that follows (the spec's success and failure messages are browser alerts).
 */
export async function changeMasterPassword(page: Page, current: string, next: string): Promise<string> {
  await page.getByLabel('Current Password', { exact: true }).fill(current);
  await page.getByLabel('New Password', { exact: true }).fill(next);
  await page.getByLabel('Confirm new password', { exact: true }).fill(next);
  const [alert] = await Promise.all([
    page.waitForEvent('dialog', { timeout: 20_000 }),
    page.getByRole('button', { name: 'Save Password' }).click(),
  ]);
  const message = alert.message();
  await alert.accept();
  return message;
}

/** Logs out from the header (on a phone, from its slide-in menu) and waits for /signin. */
export async function signOut(page: Page): Promise<void> {
  const menu = page.getByRole('button', { name: 'Open menu' });
  const phone = await menu.isVisible();
  if (phone) await menu.click();
  await (phone ? page.locator('#mobile-menu') : header(page)).getByRole('button', { name: 'Logout' }).first().click();
  await page.waitForURL('**/signin');
}
