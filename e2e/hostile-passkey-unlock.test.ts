import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useE2e } from './support/setup';
import { header, newAccount, signIn, signOut, signUpAndVerify } from './support/journeys';
import { addCredential, contextWithAuthenticator } from './support/passkey-page';
import { startTamperingProxy, type TamperingProxy } from '@lockit/test-support';
import { keepRecoveryCodes } from './support/two-factor-page';
import { addEntry, entryRows, openVault, rowOf } from './support/vault-page';

const e2e = useE2e();

/**
 * Unlock with a passkey against a hostile server: it hands the Unlock screen the unlock key of
 * another passkey (another account's, on the very same authenticator). The browser binds the
 * unwrap to the credential id its authenticator answered, so the key fails verification. And
 * after a key rotation it serves the passkey's unlock key of the key rotated away, which the
 * browser refuses by the key epoch it remembers.
 */

const VERIFICATION_FAILED = "Lockit could not unlock your vault: the server's key data failed verification.";
const ROTATED_AWAY =
  'The server answered a vault key from before a key rotation (key epoch 0), but this browser has already used the key that replaced it (key epoch 1). Your vault stays locked: the server may be replaying a key you rotated away.';
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

/** Profile's "Rotate my encryption key" with the master password, to its end. */
async function rotateKey(page: Page, password: string): Promise<void> {
  await header(page).getByRole('link', { name: 'Profile' }).first().click();
  await page.getByRole('button', { name: 'Rotate my encryption key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rotate your encryption key?' });
  await dialog.getByLabel('Master password', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Rotate', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Your encryption key was rotated.' }).waitFor({ timeout: 60_000 });
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

  it("answering, after a key rotation, the passkey's unlock key of the key rotated away: the Unlock screen says so and the vault stays locked", async () => {
    const { context, page, credentials } = await contextWithAuthenticator(e2e, { prf: true });
    const victim = newAccount('pkrotated');
    await signUpAndVerify(page, e2e.smtp, victim);
    await signIn(page, victim.username, victim.password);
    await openVault(page);
    await addEntry(page, { service: 'Rotated Mail', username: 'ada', password: 'never-shown-either' });
    const oldKey = nextUnlockKey(page);
    expect(await addCredential(page, victim, 'passkey')).toBe('Passkey added: it signs you in and unlocks your vault.');
    await keepRecoveryCodes(page);
    const [held] = await credentials();
    // What the server kept from before the rotation: the passkey's unlock key of the old vault key.
    const kept = {
      userId: Buffer.from(held!.userHandle!, 'base64').toString('utf8'),
      credentialId: toBase64Url(held!.credentialId),
      ...(await oldKey),
    };

    // The rotation makes a new vault key (key epoch 1) and clears every passkey's unlock key.
    await rotateKey(page, victim.password);
    const memory = await page.evaluate(() => JSON.stringify(localStorage));
    expect(
      Object.entries(JSON.parse(memory) as Record<string, string>).filter(([key]) => key.startsWith('lockit.keyEpoch.')),
    ).toEqual([[expect.stringMatching(/^lockit\.keyEpoch\.[0-9a-f]{64}$/), '1']]);

    // The hostile server says the passkey still unlocks, names the old key's epoch, offers that
    // passkey and answers its old unlock key.
    proxy.rewrite({
      method: 'GET',
      path: '/api/user/key-material',
      rewrite: (response) => {
        const data = (response.body as { data: Record<string, unknown> }).data;
        Object.assign(data, { passkeyUnlock: true, keyEpoch: 0 });
        return undefined;
      },
    });
    proxy.rewrite({
      method: 'POST',
      path: '/api/user/passkey/unlock-options',
      rewrite: (response) => {
        response.status = 200;
        return {
          message: 'Choose a passkey to unlock your vault.',
          data: {
            challengeId: crypto.randomUUID(),
            options: {
              challenge: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url'),
              rpId: 'localhost',
              allowCredentials: [{ id: kept.credentialId, type: 'public-key' }],
              userVerification: 'required',
              timeout: 60_000,
            },
          },
        };
      },
    });
    proxy.rewrite({
      method: 'POST',
      path: '/api/user/passkey/unlock',
      rewrite: (response) => {
        response.status = 200;
        return { message: 'Passkey verified', data: kept };
      },
    });
    // The same session at the hostile server's address, with this browser's memory of the account
    // (its session's account and the key epoch it saw), as a browser there would hold it.
    const seen = proxy.recorded.length;
    await page.goto(`${proxy.url.replace('127.0.0.1', 'localhost')}/vault`);
    await page.evaluate((saved) => {
      for (const [key, value] of Object.entries(JSON.parse(saved) as Record<string, string>)) localStorage.setItem(key, value);
    }, memory);
    const form = page.getByRole('form', { name: 'Unlock' });
    await form.getByRole('button', { name: 'Unlock with a passkey' }).click();
    await form.getByRole('alert').filter({ hasText: ROTATED_AWAY }).waitFor();
    const sent = proxy.recorded.slice(seen);
    expect(sent.filter((r) => r.path === '/api/user/passkey/unlock')).toHaveLength(1);
    expect(await entryRows(page).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add', exact: true }).count()).toBe(0);
    const writes = sent.filter((r) => r.method !== 'GET' && /^\/api\/(entries|folders|vault)/.test(r.path));
    expect(writes).toEqual([]);

    // Nothing was unlocked, and the master password still opens the rotated vault.
    proxy.clearRules();
    await form.getByLabel('Master Password', { exact: true }).fill(victim.password);
    await form.getByRole('button', { name: 'Unlock', exact: true }).click();
    await rowOf(page, 'Rotated Mail').waitFor();
    await context.close();
  });
});
