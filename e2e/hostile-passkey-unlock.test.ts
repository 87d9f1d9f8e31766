import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useE2e } from './support/setup';
import { newAccount, signIn, signOut, signUpAndVerify } from './support/journeys';
import { addCredential, contextWithAuthenticator } from './support/passkey-page';
import { startTamperingProxy, type TamperingProxy } from '@lockit/test-support';
import { keepRecoveryCodes } from './support/two-factor-page';
import { addEntry, entryRows, openVault, rowOf } from './support/vault-page';

const e2e = useE2e();

/**
 * Unlock with a passkey against a hostile server: it hands the Unlock screen the unlock key of
 * another passkey (another account's, on the very same authenticator). The browser binds the
 * unwrap to the credential id its authenticator answered, so the key fails verification.
 */

const VERIFICATION_FAILED = "Lockit could not unlock your vault: the server's key data failed verification.";
const toBase64Url = (base64: string) => base64.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');

let proxy: TamperingProxy;

beforeAll(async () => {
  // At `localhost` on both sides, so the server's relying party is a domain name.
  proxy = await startTamperingProxy(e2e.server.url.replace('127.0.0.1', 'localhost'));
});

afterAll(async () => {
  await proxy?.close();
});

/** The unlock key and PRF input the page stores next (PUT /api/user/webauthn/{id}/unlock). */
function nextUnlockKey(page: Page): Promise<{ unlockKey: string; unlockSalt: string }> {
  return new Promise((resolve) => {
    page.on('request', (request) => {
      if (request.method() === 'PUT' && /^\/api\/user\/webauthn\/[^/]+\/unlock$/.test(new URL(request.url()).pathname)) {
        resolve(JSON.parse(request.postData() ?? '{}') as { unlockKey: string; unlockSalt: string });
      }
    });
  });
}

describe('a hostile server against Unlock with a passkey', () => {
  it("answering another passkey's unlock key: the Unlock screen says verification failed and the vault stays locked", async () => {
    const { context, page, credentials } = await contextWithAuthenticator(e2e, { prf: true });

    // Another account's passkey on this same authenticator, whose unlock key the server will hand out.
    const other = newAccount('pkother');
    await signUpAndVerify(page, e2e.smtp, other);
    await signIn(page, other.username, other.password);
    const otherKey = nextUnlockKey(page);
    expect(await addCredential(page, other, 'passkey')).toBe('Passkey added: it signs you in and unlocks your vault.');
    await keepRecoveryCodes(page);
    const [otherCredential] = await credentials();
    const stolen = {
      userId: Buffer.from(otherCredential!.userHandle!, 'base64').toString('utf8'),
      credentialId: toBase64Url(otherCredential!.credentialId),
      ...(await otherKey),
    };
    await signOut(page);

    const victim = newAccount('pkvictim');
    await signUpAndVerify(page, e2e.smtp, victim);
    await signIn(page, victim.username, victim.password);
    await openVault(page);
    await addEntry(page, { service: 'Victim Mail', username: 'ada', password: 'never-shown' });
    expect(await addCredential(page, victim, 'passkey')).toBe('Passkey added: it signs you in and unlocks your vault.');
    await keepRecoveryCodes(page);
    expect(await credentials()).toHaveLength(2);

    proxy.rewrite({
      method: 'POST',
      path: '/api/user/passkey/unlock',
      rewrite: (response) => {
        response.status = 200;
        return { message: 'Passkey verified', data: stolen };
      },
    });
    // The same session (cookies ignore the port) at the hostile server's address: a new origin,
    // so nothing of this tab's unlock carries over and the vault shows Unlock. This browser's record
    // of the account it signed in as is its own, carried to that origin as a sign-in there leaves it.
    const signedInAs = await page.evaluate(() => localStorage.getItem('lockit.sessionAccount'));
    expect(signedInAs).toMatch(/^[0-9a-f]{64}$/);
    await page.goto(`${proxy.url.replace('127.0.0.1', 'localhost')}/vault`);
    await page.evaluate((ref) => localStorage.setItem('lockit.sessionAccount', ref), signedInAs!);
    const form = page.getByRole('form', { name: 'Unlock' });
    await form.getByRole('button', { name: 'Unlock with a passkey' }).click();
    await form.getByRole('alert').filter({ hasText: VERIFICATION_FAILED }).waitFor();
    expect(proxy.recorded.filter((r) => r.path === '/api/user/passkey/unlock')).toHaveLength(1);
    expect(await entryRows(page).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add', exact: true }).count()).toBe(0);

    // Nothing was unlocked, and the master password field still works.
    proxy.clearRules();
    await form.getByLabel('Master Password', { exact: true }).fill(victim.password);
    await form.getByRole('button', { name: 'Unlock', exact: true }).click();
    await rowOf(page, 'Victim Mail').waitFor();
    await context.close();
  });
});
