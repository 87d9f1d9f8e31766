import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useE2e } from './support/setup';
import { newAccount, signIn, signOut, signUpAndVerify, submitSignIn, type Account } from './support/journeys';
import { enableTotp, keepRecoveryCodes } from './support/two-factor-page';
import { addEntry, openVault, rowOf } from './support/vault-page';

const e2e = useE2e();

const NO_PRF_TEXT =
  "This passkey can't unlock your vault: its authenticator has no PRF support. It works as a second step at sign-in.";
const CANNOT_UNLOCK_TEXT = 'This passkey signs you in but cannot unlock your vault: enter your master password.';
const PASSKEY_REFUSED = 'That passkey could not be verified. Try again or sign in with your master password.';
const NEW_SIGN_IN_SUBJECT = 'New sign-in to your Lockit account';

/**
 * A browser profile on `localhost` (WebAuthn refuses IP addresses) with Chromium's virtual
 * authenticator: a platform authenticator that verifies the user and answers at once.
 */
async function contextWithAuthenticator(options: { prf: boolean; transport?: 'internal' | 'usb' }) {
  const context = await e2e.newContext({ baseURL: e2e.server.url.replace('127.0.0.1', 'localhost') });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      ctap2Version: 'ctap2_1',
      transport: options.transport ?? 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
      hasPrf: options.prf,
    },
  });
  const credentials = async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  return { context, page, credentials };
}

/** Adds a passkey or security key from Profile; returns the section's outcome text. */
async function addCredential(page: Page, account: Account, kind: 'passkey' | 'security key'): Promise<string> {
  await page.goto('/profile');
  const section = page.getByRole('region', { name: 'Passkeys and security keys' });
  await section.getByText('No passkeys or security keys yet.').waitFor();
  await section.getByRole('button', { name: `Add a ${kind}` }).click();
  const dialog = page.getByRole('dialog', { name: `Add a ${kind}` });
  await dialog.getByLabel('Name').fill(kind === 'passkey' ? 'Laptop passkey' : 'Desk key');
  await dialog.getByLabel('Master Password', { exact: true }).fill(account.password);
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await dialog.waitFor({ state: 'hidden', timeout: 30_000 });
  const outcome = section.locator('[role="status"], [role="alert"]');
  await outcome.first().waitFor();
  return outcome.first().innerText();
}

async function signInWithPasskey(page: Page): Promise<void> {
  await page.goto('/signin');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
}

describe('Passkeys in Chromium’s virtual authenticator (issue 18)', () => {
  it('a PRF passkey signs in and unlocks the vault with no password typed', async () => {
    const account = newAccount('passkey');
    const { context, page, credentials } = await contextWithAuthenticator({ prf: true });
    await signUpAndVerify(page, e2e.smtp, account);
    await signIn(page, account.username, account.password);
    await openVault(page);
    await addEntry(page, { service: 'Passkey Mail', username: 'ada', password: 'opened-by-a-passkey' });

    expect(await addCredential(page, account, 'passkey')).toBe('Passkey added: it signs you in and unlocks your vault.');
    expect(await keepRecoveryCodes(page)).toHaveLength(10);
    const section = page.getByRole('region', { name: 'Passkeys and security keys' });
    const row = section.getByRole('list', { name: 'Passkeys and security keys' }).getByRole('listitem');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.innerText()).toContain('Laptop passkey');
    await row.getByText('Signs in and unlocks').waitFor();
    // A discoverable credential for this relying party, held by the authenticator.
    const held = await credentials();
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
    await signOut(page);

    await signInWithPasskey(page);
    await page.waitForURL('**/home');
    await openVault(page);
    const entry = rowOf(page, 'Passkey Mail');
    await entry.getByRole('button', { name: 'Show password for Passkey Mail' }).click();
    await entry.getByText('opened-by-a-passkey', { exact: true }).waitFor();
    expect(await page.getByLabel('Master Password', { exact: true }).count()).toBe(0);

    // Profile now shows when it was last used; the known browser got no "new sign-in" mail.
    await page.goto('/profile');
    await row.getByText(/Last used/).waitFor();
    expect(e2e.smtp.mailsTo(account.email).map((mail) => mail.subject)).not.toContain(NEW_SIGN_IN_SUBJECT);

    // Removed (with the master password), it signs in no more, though the authenticator keeps it.
    await section.getByRole('button', { name: 'Remove Laptop passkey' }).click();
    const remove = page.getByRole('dialog', { name: 'Remove Laptop passkey?' });
    await remove.getByText(/its copy of your vault key is deleted/).waitFor();
    await remove.getByLabel('Master Password', { exact: true }).fill(account.password);
    await remove.getByRole('button', { name: 'Remove', exact: true }).click();
    await section.getByRole('status').filter({ hasText: 'Removed Laptop passkey.' }).waitFor();
    await section.getByText('No passkeys or security keys yet.').waitFor();
    await signOut(page);
    await signInWithPasskey(page);
    await page.getByText(PASSKEY_REFUSED).waitFor();
    expect(page.url()).toMatch(/\/signin$/);
    expect(await credentials()).toHaveLength(1);
    await context.close();
  });

  it('without PRF the passkey is added with the reason, and signing in with it asks the master password', async () => {
    const account = newAccount('noprf');
    const { context, page } = await contextWithAuthenticator({ prf: false });
    await signUpAndVerify(page, e2e.smtp, account);
    await signIn(page, account.username, account.password);
    await openVault(page);
    await addEntry(page, { service: 'Plain Mail', username: 'ada', password: 'needs-the-password' });

    expect(await addCredential(page, account, 'passkey')).toBe(NO_PRF_TEXT);
    await keepRecoveryCodes(page);
    const row = page.getByRole('list', { name: 'Passkeys and security keys' }).getByRole('listitem');
    await row.getByText('Laptop passkey').waitFor();
    expect(await row.getByText('Signs in and unlocks').count()).toBe(0);
    await signOut(page);

    await signInWithPasskey(page);
    await page.waitForURL('**/vault');
    await page.getByText(CANNOT_UNLOCK_TEXT).waitFor();
    await page.getByLabel('Master Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await rowOf(page, 'Plain Mail').waitFor();
    await context.close();
  });

  it('with an authenticator app on too, the passkey alone signs in and unlocks: it is both factors', async () => {
    const account = newAccount('passkeytotp');
    const { context, page } = await contextWithAuthenticator({ prf: true });
    await signUpAndVerify(page, e2e.smtp, account);
    await signIn(page, account.username, account.password);
    await enableTotp(page, account);
    // The authenticator app's recovery codes came first: a passkey brings no new ones.
    expect(await addCredential(page, account, 'passkey')).toBe('Passkey added: it signs you in and unlocks your vault.');
    expect(await page.getByRole('dialog', { name: 'Your recovery codes' }).count()).toBe(0);
    await signOut(page);

    await signInWithPasskey(page);
    await page.waitForURL('**/home');
    await openVault(page);
    await page.getByText(/You haven't saved any passwords yet/).waitFor();
    expect(await page.getByRole('heading', { name: 'Two-step sign-in' }).count()).toBe(0);
    await context.close();
  });

  it('a security key is asked as the second step after the password', async () => {
    const account = newAccount('seckey');
    const { context, page } = await contextWithAuthenticator({ prf: false, transport: 'usb' });
    await signUpAndVerify(page, e2e.smtp, account);
    await signIn(page, account.username, account.password);

    expect(await addCredential(page, account, 'security key')).toBe(
      'Security key added: it is asked as a second step at sign-in.',
    );
    expect(await keepRecoveryCodes(page)).toHaveLength(10);
    await page.getByRole('list', { name: 'Passkeys and security keys' }).getByText('Desk key').waitFor();
    await signOut(page);

    await submitSignIn(page, account.username, account.password);
    await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
    await page.getByRole('button', { name: 'Use your security key' }).click();
    await page.waitForURL('**/home');
    await openVault(page);
    await page.getByText(/You haven't saved any passwords yet/).waitFor();
    await context.close();
  });
});
