import type { BrowserContext, Page } from 'playwright-core';
import type { E2eRun } from './setup';
import type { Account } from './journeys';

/** A discoverable credential as Chromium's virtual authenticator holds it (ids in plain base64). */
export interface HeldCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  userHandle?: string;
}

export interface AuthenticatorContext {
  context: BrowserContext;
  page: Page;
  credentials: () => Promise<HeldCredential[]>;
}

/**
 * A browser profile on `localhost` (WebAuthn refuses IP addresses) with Chromium's virtual
 * authenticator: a platform authenticator that verifies the user and answers at once.
 */
export async function contextWithAuthenticator(
  e2e: E2eRun,
  options: { prf: boolean; transport?: 'internal' | 'usb' },
): Promise<AuthenticatorContext> {
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
export async function addCredential(page: Page, account: Account, kind: 'passkey' | 'security key'): Promise<string> {
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
