import { apiPaths } from '@lockit/contract';
import { decryptField, encryptField, importVaultKey, passkeyPrfInputBase64Url, toBase64Url } from '@lockit/crypto';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { accountRefOf } from '@lockit/client-core';
import { deviceMemory } from '@/lib/device-memory';
import { FLOOR_KDF } from '@/testing/crypto-fixtures';
import { rememberKeyGeneration } from '@/testing/device-memory-by-name';
import { fakeApi, route, signedInRoutes } from '@/testing/fake-api';
import { devicePasskey } from '@/testing/passkey-fixtures';
import { renderApp } from '@/testing/render-app';
import { installFakeClockWithRealTime } from '@/testing/timers';

const USER_ID = '0b7a3f52-6c1e-4d2a-9f1b-3c5d7e9f1a2b';
const CHALLENGE_ID = '5b0e6bd4-0c7b-4d6f-a3f4-0d1c0e3f9a11';

/**
 * A passkey on the device and the server's record of it. `wrappedFor` is the credential id the
 * unlock key was bound to (the passkey's own by default); `unlock: false` registers it without PRF.
 */
async function passkeyAccount(
  options: { wrappedFor?: string; unlock?: boolean; serverName?: string; serverUserId?: string } = {},
) {
  const { account, credentialId, unlockKey } = await devicePasskey(USER_ID, options);
  const api = fakeApi({
    ...signedInRoutes(),
    [route('POST', apiPaths.passkeyOptions)]: {
      status: 200,
      body: {
        message: 'OK',
        data: { challengeId: CHALLENGE_ID, options: { challenge: toBase64Url(new Uint8Array(32)), rpId: 'localhost' } },
      },
    },
    [route('POST', apiPaths.passkeySignIn)]: {
      status: 200,
      body: {
        message: 'Login successful',
        data: {
          username: options.serverName ?? 'alice',
          email: 'alice@example.com',
          userId: options.serverUserId ?? USER_ID,
          // The server's word for the credential is never what the unwrap binds.
          credentialId: options.wrappedFor ?? credentialId,
          unlockKey,
          unlockSalt: unlockKey === null ? null : await passkeyPrfInputBase64Url(),
        },
      },
    },
    [route('GET', apiPaths.keyMaterial)]: {
      status: 200,
      body: { message: 'OK', data: { kdf: account.kdf, salt: account.salt, protectedKey: account.protectedKey } },
    },
    [route('POST', apiPaths.logout)]: { status: 200, body: { message: 'Logged out' } },
    [route('GET', apiPaths.listEntries)]: { status: 200, body: { message: 'OK', data: [] } },
  });
  return { account, api, credentialId };
}

async function signInWithPasskey() {
  const app = renderApp('/signin');
  await app.user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
  return app;
}

describe('Sign in with a passkey', () => {
  beforeEach(() => {
    installFakeClockWithRealTime();
  });

  it('unwraps the unlock key with the PRF output and opens the vault, sending no PRF output', async () => {
    const { account, api, credentialId } = await passkeyAccount();
    const app = await signInWithPasskey();

    await waitFor(() => expect(app.pathname()).toBe('/home'));
    const vault = app.keyring.vault;
    expect(vault).toMatchObject({ username: 'alice', kdf: FLOOR_KDF, salt: account.salt, protectedKey: account.protectedKey });
    const reference = await importVaultKey(account.vaultKeyBytes);
    const entryId = crypto.randomUUID();
    expect(
      await decryptField(reference, entryId, 'password', await encryptField(vault!.vaultKey, entryId, 'password', 'x')),
    ).toBe('x');

    const [sent] = api.to('POST', apiPaths.passkeySignIn);
    expect(sent!.body).toMatchObject({ challengeId: CHALLENGE_ID, response: { rawId: credentialId } });
    expect(JSON.stringify(sent!.body)).not.toContain('results');
  });

  it('refuses an unlock key bound to another credential id: says so, unlocks nothing, ends the session', async () => {
    const { api } = await passkeyAccount({ wrappedFor: toBase64Url(new Uint8Array(16).fill(0x3d)) });
    const app = await signInWithPasskey();

    expect(
      await screen.findByText("Lockit could not unlock your vault: the server's key data failed verification."),
    ).toBeInTheDocument();
    expect(app.keyring.vault).toBeNull();
    await waitFor(() => expect(api.to('POST', apiPaths.logout)).toHaveLength(1));
    expect(app.pathname()).toBe('/signin');
  });

  it("finds this browser's memory by the authenticator's user handle, whatever name the server answers", async () => {
    // This browser signed in as alice before and learnt her passkeys' user handle then.
    await deviceMemory.rememberUserHandle(USER_ID, await accountRefOf('alice'));
    await rememberKeyGeneration('alice', 1);
    const { api } = await passkeyAccount({ serverName: '\u0430lice' });
    const app = await signInWithPasskey();

    expect(await screen.findByText(/The server answered an older key \(generation 0\)/)).toBeInTheDocument();
    expect(app.keyring.vault).toBeNull();
    await waitFor(() => expect(api.to('POST', apiPaths.logout)).toHaveLength(1));
  });

  it("refuses an answer for another account than the passkey's user handle, and ends the session", async () => {
    const { api } = await passkeyAccount({ serverUserId: '9f0e5c1a-2b3d-4e5f-8a9b-0c1d2e3f4a5b' });
    const app = await signInWithPasskey();

    expect(await screen.findByText(/The server answered for a different account than the one you typed/)).toBeInTheDocument();
    expect(app.keyring.vault).toBeNull();
    await waitFor(() => expect(api.to('POST', apiPaths.logout)).toHaveLength(1));
  });

  it('with a passkey that cannot unlock, opens the session and shows Unlock saying why', async () => {
    await passkeyAccount({ unlock: false });
    const app = await signInWithPasskey();

    await waitFor(() => expect(app.pathname()).toBe('/vault'));
    expect(
      await screen.findByText('This passkey signs you in but cannot unlock your vault: enter your master password.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Unlock' })).toBeInTheDocument();
    expect(app.keyring.vault).toBeNull();
  });
});
