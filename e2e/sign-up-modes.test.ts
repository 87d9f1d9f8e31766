import { createHash, randomBytes, randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { ApiClient, createBody, newAccount as newApiAccount } from '@lockit/test-support';
import { PHONE } from '@lockit/test-support/chromium';
import { newAccount, signIn } from './support/journeys';
import { useE2e, type E2eRun } from './support/setup';

/**
 * Who may sign up (SIGNUP_MODE, SIGNUP_ALLOWED_DOMAINS; decision 0044) in Chromium against the
 * built app: outside open mode no page offers a Sign Up link or button, not in the HTML the
 * server sends nor after the app takes over, and /signup says why instead of showing a form.
 */

/** A link or button that would lead to the sign-up form. */
const SIGN_UP = /^(sign ?up( here)?|get started|create your free account)$/i;

async function signUpOffers(page: Page): Promise<string[]> {
  return page.evaluate((source) => {
    const pattern = new RegExp(source, 'i');
    const offers = Array.from(document.querySelectorAll('a, button'))
      .filter((element) => pattern.test(element.textContent?.trim() ?? '') || element.getAttribute('href') === '/signup')
      .map((element) => `${element.tagName} ${element.textContent?.trim()}`);
    // The header's link and the (closed) mobile menu's are one offer.
    return [...new Set(offers)];
  }, SIGN_UP.source);
}

/** The app has hydrated the page: the mobile menu's button (shown at phone width) is enabled only then. */
async function appRunning(page: Page): Promise<void> {
  await expect.poll(() => page.getByRole('button', { name: 'Open menu' }).isEnabled(), { timeout: 10_000 }).toBe(true);
}

async function expectNoSignUpAnywhere(e2e: E2eRun, mode: 'invite' | 'closed'): Promise<void> {
  for (const path of ['/', '/home', '/signin', '/about']) {
    const html = await (await fetch(`${e2e.server.url}${path}`)).text();
    expect(html, `${path} as sent`).toContain(`<meta name="lockit-signup-mode" content="${mode}"`);
    expect(html, `${path} as sent`).not.toContain('href="/signup"');
    expect(html, `${path} as sent`).not.toMatch(/>(Sign Up|Get Started|Create Your Free Account)</);
  }
  const context = await e2e.newContext({ viewport: PHONE });
  const page = await context.newPage();
  for (const path of ['/', '/home', '/signin']) {
    await page.goto(path);
    await appRunning(page);
    expect(await signUpOffers(page), path).toEqual([]);
  }
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Mobile' });
  await menu.waitFor();
  expect(await menu.getByRole('link').allTextContents()).toEqual(['Home', 'About', 'Sign In']);
  await context.close();
}

async function expectSignUpPageSays(e2e: E2eRun, text: string): Promise<void> {
  const html = await (await fetch(`${e2e.server.url}/signup`)).text();
  expect(html, '/signup as sent').toContain(text);
  expect(html, '/signup as sent').not.toContain('<form');
  const context = await e2e.newContext();
  const page = await context.newPage();
  await page.goto('/signup');
  await page.getByText(text).waitFor();
  await page.getByRole('link', { name: 'Sign in here' }).waitFor();
  expect(await page.locator('form').count()).toBe(0);
  expect(await page.getByLabel('Email').count()).toBe(0);
  await context.close();
}

describe('SIGNUP_MODE=open (the default), as a control for the checks below', () => {
  const e2e = useE2e();

  it('offers sign-up in the header, the home page and the sign-in page', async () => {
    const context = await e2e.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto('/home');
    await appRunning(page);
    expect(await signUpOffers(page)).toEqual(['A Sign Up', 'BUTTON Get Started', 'BUTTON Create Your Free Account']);
    await page.goto('/signin');
    await appRunning(page);
    expect(await signUpOffers(page)).toEqual(['A Sign Up', 'A Sign up here']);
    await context.close();
  });
});

describe('SIGNUP_MODE=closed', () => {
  const e2e = useE2e({ serverEnv: { SIGNUP_MODE: 'closed' } });

  it('offers no sign-up on any page, desktop or phone, and /signup says sign-up is closed', async () => {
    await expectNoSignUpAnywhere(e2e, 'closed');
    await expectSignUpPageSays(e2e, 'Sign-up is closed on this server. Ask its operator for an account.');
  });
});

describe('SIGNUP_MODE=invite with SIGNUP_ALLOWED_DOMAINS', () => {
  const e2e = useE2e({ serverEnv: { SIGNUP_MODE: 'invite', SIGNUP_ALLOWED_DOMAINS: 'example.test' } });

  it('offers no sign-up on any page, and /signup without a link says it is by invitation', async () => {
    await expectNoSignUpAnywhere(e2e, 'invite');
    await expectSignUpPageSays(e2e, 'Sign-up on this server is by invitation. Open the invitation link you were sent.');
  });

  it('lets a member invite someone from Profile; the link signs them up, at an allowed address only', async () => {
    const member = await firstMember(e2e);
    const memberContext = await e2e.newContext();
    const memberPage = await memberContext.newPage();
    await signIn(memberPage, member.username, member.password);
    await memberPage.goto('/profile');
    const section = memberPage.getByRole('region', { name: 'Invite someone' });
    await section.getByRole('button', { name: 'Create invite link' }).click();
    const linkField = section.getByRole('textbox', { name: 'Invite link' });
    await linkField.waitFor();
    const link = await linkField.inputValue();
    expect(link).toMatch(new RegExp(`^${e2e.server.url}/signup\\?invite=[\\w-]{43}$`));
    await section.getByRole('button', { name: 'Copy' }).click();
    expect(await memberPage.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await section.getByRole('list', { name: 'Open invitations' }).getByText('Anyone with the link').waitFor();

    const guest = newAccount('guest');
    const guestContext = await e2e.newContext();
    const page = await guestContext.newPage();
    await page.goto(link);
    await page.getByLabel('Full Name').fill(guest.fullname);
    await page.getByLabel('Username').fill(guest.username);
    await page.getByLabel('Email').fill(`${guest.username}@elsewhere.example`);
    await page.getByLabel('Password', { exact: true }).fill(guest.password);
    await page.getByLabel('Confirm password', { exact: true }).fill(guest.password);
    await page.getByText('Sign-up on this server is limited to e-mail addresses at example.test.').waitFor();
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toBe('Sign-up on this server is limited to e-mail addresses at example.test.');

    await page.getByLabel('Email').fill(guest.email);
    const code = e2e.smtp.inbox.expectCode(guest);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    const dialog = page.getByRole('dialog', { name: 'Verify Your Email' });
    await dialog.waitFor({ timeout: 20_000 });
    expect(await code()).toMatch(/^[A-Z0-9]{6}$/);
    await memberContext.close();
    await guestContext.close();
  });

  /** The first account of an invite-only server: the operator's invitation, seeded into its database. */
  async function firstMember(run: E2eRun) {
    const token = randomBytes(32).toString('base64url');
    const database = new Database(run.server.databasePath);
    try {
      database
        .prepare(
          'insert into invites (id, token_hash, invited_by, email, email_folded, created_at, expires_at) values (?, ?, null, null, null, ?, ?)',
        )
        // The server's hashInviteToken: SHA-256, base64url.
        .run(randomUUID(), createHash('sha256').update(token).digest('base64url'), Date.now(), Date.now() + 86_400_000);
    } finally {
      database.close();
    }
    const account = await newApiAccount({ email: `first${Date.now()}@example.test` });
    const client = new ApiClient(run.server.url);
    await client.expect(201, 'POST', apiPaths.createUser, { ...createBody(account), invite: token });
    const code = run.smtp.inbox.expectCode(account);
    await client.expect(200, 'POST', apiPaths.sendCode, { email: account.email, username: account.username });
    await client.expect(200, 'POST', apiPaths.verifyCode, {
      email: account.email,
      username: account.username,
      code: await code(),
    });
    return { username: account.username, password: account.password };
  }
});
