import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useE2e } from './support/setup';
import { newAccount, signIn, signOut, signUpViaApi, submitSignIn } from './support/journeys';
import { addCredential, contextWithAuthenticator } from './support/passkey-page';
import { enableTotp, keepRecoveryCodes } from './support/two-factor-page';
import { addEntry, openVault, rowOf } from './support/vault-page';

const e2e = useE2e();

const NO_PRF_TEXT =
  "This passkey can't unlock your vault: its authenticator has no PRF support. It works as a second step at sign-in.";
const CANNOT_UNLOCK_TEXT = 'This passkey signs you in but cannot unlock your vault: enter your master password.';
const PASSKEY_REFUSED = 'That passkey could not be verified. Try again or sign in with your master password.';
const NEW_SIGN_IN_SUBJECT = 'New sign-in to your Lockit account';

/** How many passkey unlock keys this browser keeps for its offline copies (IndexedDB, read in the page). */
function keptPasskeyUnlocks(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('lockit-offline');
        open.onerror = () => reject(open.error ?? new Error('open failed'));
        open.onsuccess = () => {
          const database = open.result;
          if (!database.objectStoreNames.contains('passkey-unlocks')) {
            database.close();
            resolve(0);
            return;
          }
          const all = database.transaction('passkey-unlocks', 'readonly').objectStore('passkey-unlocks').getAll();
          all.onsuccess = () => {
            database.close();
            resolve((all.result as unknown[][]).reduce((sum, unlocks) => sum + unlocks.length, 0));
          };
          all.onerror = () => reject(all.error ?? new Error('read failed'));
        };
      }),
  );
}

async function signInWithPasskey(page: Page): Promise<void> {
  await page.goto('/signin');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
}

describe('Passkeys in Chromium’s virtual authenticator', () => {
  it('a PRF passkey signs in and unlocks the vault with no password typed', async () => {
    const account = newAccount('passkey');
    const { context, page, credentials } = await contextWithAuthenticator(e2e, { prf: true });
    await signUpViaApi(e2e.server, e2e.smtp, account);
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

  it('a PRF passkey unlocks a locked vault from the Unlock screen, with no password typed', async () => {
    const account = newAccount('pkunlock');
    const { context, page } = await contextWithAuthenticator(e2e, { prf: true });
    await signUpViaApi(e2e.server, e2e.smtp, account);
    await signIn(page, account.username, account.password);
    await openVault(page);
    await addEntry(page, { service: 'Locked Mail', username: 'ada', password: 'unlocked-by-a-passkey' });
    expect(await addCredential(page, account, 'passkey')).toBe('Passkey added: it signs you in and unlocks your vault.');
    await keepRecoveryCodes(page);

    // "Lock on every reload": the next page load keeps the session but not the vault key.
    await page.getByRole('switch', { name: 'Lock on every reload' }).check();
    await page.goto('/vault');
    const form = page.getByRole('form', { name: 'Unlock' });
    await form.waitFor();
    await form.getByRole('button', { name: 'Unlock with a passkey' }).click();
    const entry = rowOf(page, 'Locked Mail');
    await entry.getByRole('button', { name: 'Show password for Locked Mail' }).click();
    await entry.getByText('unlocked-by-a-passkey', { exact: true }).waitFor();
    expect(await form.count()).toBe(0);
    await context.close();
  });

  it('a PRF passkey that unlocked the vault online here opens its offline copy with the network off, and logout forgets it', async () => {
    const account = newAccount('pkoffline');
    const { context, page } = await contextWithAuthenticator(e2e, { prf: true });
    await signUpViaApi(e2e.server, e2e.smtp, account);
    await signIn(page, account.username, account.password);
    await openVault(page);
    await addEntry(page, { service: 'Offline Mail', username: 'ada', password: 'opened-offline-by-a-passkey' });
    expect(await addCredential(page, account, 'passkey')).toBe('Passkey added: it signs you in and unlocks your vault.');
    await keepRecoveryCodes(page);
    await page.getByRole('switch', { name: 'Lock on every reload' }).check();

    // Online, the passkey unlocks once: its unlock key is kept beside the offline copy.
    await page.goto('/vault');
    await page.getByRole('form', { name: 'Unlock' }).getByRole('button', { name: 'Unlock with a passkey' }).click();
    await rowOf(page, 'Offline Mail').waitFor();
    await expect.poll(() => keptPasskeyUnlocks(page), { timeout: 5_000 }).toBe(1);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });

    await context.setOffline(true);
    await page.reload();
    const form = page.getByRole('form', { name: 'Unlock' });
    await form
      .getByText('Your master password or your passkey opens the copy of your vault saved on this device')
      .waitFor({ timeout: 10_000 });
    await form.getByRole('button', { name: 'Unlock with a passkey' }).click();
    const entry = rowOf(page, 'Offline Mail');
    await entry.getByRole('button', { name: 'Show password for Offline Mail' }).click();
    await entry.getByText('opened-offline-by-a-passkey', { exact: true }).waitFor();
    expect(await form.count()).toBe(0);

    await context.setOffline(false);
    await signOut(page);
    expect(await keptPasskeyUnlocks(page)).toBe(0);
    // Requests that failed while the network was off are the point of this test.
    e2e.errors.splice(0);
    await context.close();
  });

  it('without PRF the passkey is added with the reason, and signing in with it asks the master password', async () => {
    const account = newAccount('noprf');
    const { context, page } = await contextWithAuthenticator(e2e, { prf: false });
    await signUpViaApi(e2e.server, e2e.smtp, account);
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
    const { context, page } = await contextWithAuthenticator(e2e, { prf: true });
    await signUpViaApi(e2e.server, e2e.smtp, account);
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
    const { context, page } = await contextWithAuthenticator(e2e, { prf: false, transport: 'usb' });
    await signUpViaApi(e2e.server, e2e.smtp, account);
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
