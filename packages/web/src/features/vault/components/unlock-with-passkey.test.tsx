import { apiPaths } from '@lockit/contract';
import { decryptField, encryptField, importVaultKey, passkeyPrfInputBase64Url, toBase64Url } from '@lockit/crypto';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Keyring } from '@/lib/keyring';
import { fakeApi, route, signedInRoutes } from '@/testing/fake-api';
import { bindSessionTo, checkRememberedKeyEpoch, rememberKeyEpoch } from '@/testing/device-memory-by-name';
import { pageRoutes } from '@/testing/page-routes';
import { devicePasskey, PASSKEY_ID } from '@/testing/passkey-fixtures';
import { renderApp } from '@/testing/render-app';
import { fakeEntryRoutes, sealedEntry } from '@/testing/vault-fixtures';
import { VaultPage } from './vault-page';

const routes = pageRoutes({ '/vault': <VaultPage /> });
const MASTER = 'correct horse battery staple';
const USER_ID = '0b7a3f52-6c1e-4d2a-9f1b-3c5d7e9f1a2b';
const CHALLENGE_ID = '5b0e6bd4-0c7b-4d6f-a3f4-0d1c0e3f9a11';
const OTHER_ID = toBase64Url(new Uint8Array(16).fill(0x3d));
const UNLOCK_BUTTON = { name: 'Unlock with a passkey' };

interface Setup {
  /** What key-material says about passkeys (absent: an older server). */
  passkeyUnlock?: boolean;
  /** The credential the server's unlock key was wrapped for (the passkey's own by default). */
  wrappedFor?: string;
  /** The account the server's unlock key was wrapped for, and the server says it is (this one by default). */
  wrappedForUser?: string;
  /** The credential ids the unlock options allow (the passkey's own by default). */
  allow?: string[];
  /** The key epoch key-material names (absent: none, as from servers before epochs). */
  keyEpoch?: number;
  /** The key epoch the server's unlock key was made at (0 by default: made before epochs, or before any rotation). */
  wrappedAtEpoch?: number;
}

/** A signed-in tab without the vault key, a passkey on the device, and the server's record of it. */
async function lockedVault(setup: Setup = {}) {
  const { account, unlockKey } = await devicePasskey(USER_ID, {
    password: MASTER,
    wrappedFor: setup.wrappedFor,
    wrappedForUser: setup.wrappedForUser,
    keyEpoch: setup.wrappedAtEpoch,
  });
  const vaultKey = await importVaultKey(account.vaultKeyBytes.slice());
  const entry = await sealedEntry(vaultKey, { serviceName: 'GitHub', username: 'alice', password: 'gh-secret' });
  const material = {
    kdf: account.kdf,
    salt: account.salt,
    protectedKey: account.protectedKey,
    ...(setup.keyEpoch === undefined ? {} : { keyEpoch: setup.keyEpoch }),
  };
  const allowCredentials = (setup.allow ?? [PASSKEY_ID]).map((id) => ({ id, type: 'public-key' }));
  const api = fakeApi({
    ...signedInRoutes(),
    ...fakeEntryRoutes([entry]).routes,
    [route('GET', apiPaths.keyMaterial)]: {
      status: 200,
      body: {
        message: 'Success',
        data: { ...material, ...(setup.passkeyUnlock === undefined ? {} : { passkeyUnlock: setup.passkeyUnlock }) },
      },
    },
    [route('POST', apiPaths.passkeyUnlockOptions)]: {
      status: 200,
      body: {
        message: 'Choose a passkey to unlock your vault.',
        data: {
          challengeId: CHALLENGE_ID,
          options: {
            challenge: toBase64Url(new Uint8Array(32)),
            rpId: 'localhost',
            allowCredentials,
            userVerification: 'required',
          },
        },
      },
    },
    [route('POST', apiPaths.passkeyUnlock)]: {
      status: 200,
      body: {
        message: 'Passkey verified',
        // The server's word for the credential is never what the unwrap binds.
        data: {
          userId: setup.wrappedForUser ?? USER_ID,
          credentialId: setup.wrappedFor ?? PASSKEY_ID,
          unlockKey,
          unlockSalt: await passkeyPrfInputBase64Url(),
        },
      },
    },
  });
  const keyring = new Keyring();
  const app = renderApp('/vault', { routes, keyring });
  const form = await screen.findByRole('form', { name: 'Unlock' });
  return { account, api, app, keyring, form };
}

describe('Unlock with a passkey', () => {
  it('is not offered when no passkey of the account can unlock, or the server does not say', async () => {
    for (const passkeyUnlock of [false, undefined]) {
      const { api, form, app } = await lockedVault({ passkeyUnlock });
      await waitFor(() => expect(api.to('GET', apiPaths.keyMaterial)).toHaveLength(1));
      expect(within(form).queryByRole('button', UNLOCK_BUTTON)).not.toBeInTheDocument();
      app.unmount();
    }
  });

  it('unlocks with the passkey: the PRF output opens the unlock key, and it is never sent', async () => {
    const { account, api, app, keyring, form } = await lockedVault({ passkeyUnlock: true });
    await app.user.click(await within(form).findByRole('button', UNLOCK_BUTTON));

    expect(await screen.findByRole('listitem', { name: 'GitHub' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Unlock' })).not.toBeInTheDocument();
    const vault = keyring.vault!;
    expect(vault).toMatchObject({ username: 'alice', salt: account.salt, protectedKey: account.protectedKey });
    expect(vault.vaultKey.extractable).toBe(false);
    const reference = await importVaultKey(account.vaultKeyBytes);
    const entryId = crypto.randomUUID();
    const sealed = await encryptField(vault.vaultKey, entryId, 'password', 'x');
    expect(await decryptField(reference, entryId, 'password', sealed)).toBe('x');

    const [sent] = api.to('POST', apiPaths.passkeyUnlock);
    expect(sent!.body).toMatchObject({ challengeId: CHALLENGE_ID, response: { rawId: PASSKEY_ID } });
    expect(JSON.stringify(api.requests)).not.toContain('results');
    expect(api.to('POST', apiPaths.login)).toHaveLength(0);
  });

  it('says plainly when the prompt was cancelled, and the master password still unlocks', async () => {
    // The browser answers a prompt the person cancelled, and one for a credential it does not
    // hold, with the same NotAllowedError.
    const { api, app, keyring, form } = await lockedVault({ passkeyUnlock: true, allow: [OTHER_ID] });
    await app.user.click(await within(form).findByRole('button', UNLOCK_BUTTON));

    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'The passkey request was cancelled or timed out. Please try again.',
    );
    expect(api.to('POST', apiPaths.passkeyUnlock)).toHaveLength(0);
    expect(keyring.vault).toBeNull();
    const password = within(form).getByLabelText('Master Password');
    expect(password).toBeEnabled();
    await app.user.type(password, MASTER);
    await app.user.click(within(form).getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByRole('listitem', { name: 'GitHub' })).toBeInTheDocument();
  });

  // The same PRF output wraps both keys: only the binding to what the authenticator answered
  // (its credential id, and the account its user handle names) tells them apart.
  it.each([
    ["another credential's", { wrappedFor: OTHER_ID }],
    ["another account's", { wrappedForUser: '7c6f1d2e-0a4b-4c3d-8e9f-1a2b3c4d5e6f' }],
  ])('refuses %s unlock key, which the server vouches for: says verification failed and unlocks nothing', async (_, lie) => {
    const { app, keyring, form } = await lockedVault({ passkeyUnlock: true, ...lie });
    await app.user.click(await within(form).findByRole('button', UNLOCK_BUTTON));

    expect(await within(form).findByRole('alert')).toHaveTextContent(
      "Lockit could not unlock your vault: the server's key data failed verification.",
    );
    expect(keyring.vault).toBeNull();
    expect(screen.queryByRole('list', { name: 'Saved passwords' })).not.toBeInTheDocument();
    expect(within(form).getByLabelText('Master Password')).toBeEnabled();
  });
});

describe('Unlock after a key rotation this browser saw', () => {
  const ROLLED_BACK =
    'The server answered a vault key from before a key rotation (key epoch 0), but this browser has already used the key that replaced it (key epoch 1). Your vault stays locked: the server may be replaying a key you rotated away.';

  /** This browser used the vault key of epoch 1 (it rotated, or opened a wrap of epoch 1). */
  async function sawEpoch1() {
    await bindSessionTo('alice');
    await rememberKeyEpoch('alice', 1);
  }

  it("refuses the passkey's unlock key from before the rotation when the server names its old epoch: says so plainly and stays locked", async () => {
    await sawEpoch1();
    const { api, app, keyring, form } = await lockedVault({ passkeyUnlock: true, keyEpoch: 0, wrappedAtEpoch: 0 });
    await app.user.click(await within(form).findByRole('button', UNLOCK_BUTTON));

    expect(await within(form).findByRole('alert')).toHaveTextContent(ROLLED_BACK);
    expect(keyring.vault).toBeNull();
    expect(screen.queryByRole('list', { name: 'Saved passwords' })).not.toBeInTheDocument();
    expect(api.requests.filter((request) => request.method !== 'GET' && request.path.startsWith('/api/entries'))).toEqual([]);
    expect(within(form).getByLabelText('Master Password')).toBeEnabled();
  });

  it("refuses the passkey's unlock key from before the rotation when the server names the current epoch: it fails verification", async () => {
    await sawEpoch1();
    const { app, keyring, form } = await lockedVault({ passkeyUnlock: true, keyEpoch: 1, wrappedAtEpoch: 0 });
    await app.user.click(await within(form).findByRole('button', UNLOCK_BUTTON));

    expect(await within(form).findByRole('alert')).toHaveTextContent(
      "Lockit could not unlock your vault: the server's key data failed verification.",
    );
    expect(keyring.vault).toBeNull();
  });

  it("refuses the master password's wrap from before the rotation, though its generation is one this browser accepts", async () => {
    // This browser learnt epoch 1 from a passkey, which tells it no generation: only the epoch tells the old wrap.
    await sawEpoch1();
    const { api, app, keyring, form } = await lockedVault({ passkeyUnlock: true, keyEpoch: 0 });
    await app.user.type(within(form).getByLabelText('Master Password'), MASTER);
    await app.user.click(within(form).getByRole('button', { name: 'Unlock' }));

    expect(await within(form).findByRole('alert')).toHaveTextContent(ROLLED_BACK);
    expect(keyring.vault).toBeNull();
    expect(api.to('POST', apiPaths.login)).toHaveLength(0);
  });

  it('unlocks with an unlock key of the current epoch, and remembers that epoch', async () => {
    await sawEpoch1();
    const { app, keyring, form } = await lockedVault({ passkeyUnlock: true, keyEpoch: 2, wrappedAtEpoch: 2 });
    await app.user.click(await within(form).findByRole('button', UNLOCK_BUTTON));

    expect(await screen.findByRole('listitem', { name: 'GitHub' })).toBeInTheDocument();
    expect(keyring.vault?.keyEpoch).toBe(2);
    await expect(checkRememberedKeyEpoch('alice', 1)).rejects.toThrow(/key epoch 1\)/);
  });

  it('still unlocks with an unlock key made before epochs where this browser saw no rotation', async () => {
    await bindSessionTo('alice');
    const { app, keyring, form } = await lockedVault({ passkeyUnlock: true });
    await app.user.click(await within(form).findByRole('button', UNLOCK_BUTTON));

    expect(await screen.findByRole('listitem', { name: 'GitHub' })).toBeInTheDocument();
    expect(keyring.vault?.keyEpoch).toBe(0);
  });
});
