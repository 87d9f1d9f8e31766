import { apiPaths } from '@lockit/contract';
import {
  deriveKeysFromPassword,
  generateVaultKeyBytes,
  randomSalt,
  unwrapVaultKey,
  wrapVaultKey,
  type KdfParams,
} from '@lockit/crypto';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { checkRememberedKdfParams, rememberKdfParams } from '@/testing/device-memory-by-name';
import { checkRememberedKeyGeneration, rememberKeyGeneration } from '@/testing/device-memory-by-name';
import { FLOOR_KDF } from '@/testing/crypto-fixtures';
import { fakeApi, route, type FakeRoute } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { installFakeClockWithRealTime } from '@/testing/timers';

/**
 * Issue 15, the browser's side: key generations and KDF bounds at sign-in. Each refusal says
 * what happened, and nothing is sent after prelogin.
 */
const PASSWORD = 'correct horse battery staple';
const OLD_FLOOR: KdfParams = { algorithm: 'argon2id', memoryKiB: 19 * 1024, iterations: 2, parallelism: 1 };

/** A verified account "alice" whose wrap is of `keyGeneration`, under `kdf`; its login answer names `answeredName`. */
async function account(kdf: KdfParams = FLOOR_KDF, keyGeneration = 0, answeredName = 'alice') {
  const salt = randomSalt();
  const keys = await deriveKeysFromPassword(PASSWORD, salt, kdf, { legacyFloor: true });
  const vaultKeyBytes = generateVaultKeyBytes();
  const protectedKey = await wrapVaultKey(vaultKeyBytes, keys.wrapKey, kdf, salt, keyGeneration);
  const routes: Record<string, FakeRoute> = {
    [route('POST', apiPaths.prelogin)]: { status: 200, body: { message: 'OK', data: { kdf, salt, keyGeneration } } },
    [route('POST', apiPaths.login)]: {
      status: 200,
      body: {
        message: 'Login successful',
        data: { username: answeredName, email: 'alice@example.com', protectedKey, keyGeneration },
      },
    },
    [route('POST', apiPaths.verifySession)]: { status: 200, body: { message: 'Success', data: { username: 'alice' } } },
    [route('POST', apiPaths.logout)]: { status: 200, body: { message: 'Logged out' } },
  };
  return { kdf, salt, vaultKeyBytes, routes };
}

async function signIn() {
  const app = renderApp('/signin');
  await screen.findByRole('heading', { name: 'Sign In' });
  await app.user.type(screen.getByLabelText('Username'), 'alice');
  await app.user.type(screen.getByLabelText('Password'), PASSWORD);
  await app.user.click(screen.getByRole('button', { name: 'Sign In' }));
  return app;
}

/** Everything the page sent after prelogin (verify-session probes on load are not the sign-in's). */
function sentAfterPrelogin(api: ReturnType<typeof fakeApi>) {
  return [apiPaths.login, apiPaths.changePassword].flatMap((path) => [...api.to('POST', path), ...api.to('PUT', path)]);
}

describe('sign-in: key generations and KDF bounds', () => {
  beforeEach(() => {
    installFakeClockWithRealTime();
  });

  it('refuses a key generation lower than this browser saw (an old key replayed), says so, and sends nothing after prelogin', async () => {
    await rememberKeyGeneration('alice', 2);
    const { routes } = await account(FLOOR_KDF, 1);
    const api = fakeApi(routes);
    const app = await signIn();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The server answered an older key (generation 1) than this browser has already seen for this account (generation 2): it may be replaying the key from before a password change. Sign-in was stopped to protect your password.',
    );
    expect(sentAfterPrelogin(api)).toHaveLength(0);
    expect(app.keyring.vault).toBeNull();
  });

  // The account a login answer names must be the typed one: a server that answers another
  // spelling would otherwise point this browser at an empty memory (no rollback caught).
  for (const [what, answered] of [
    ['a look-alike name (Cyrillic а)', '\u0430lice'],
    ['another account', 'mallory'],
    ['no name', ''],
  ] as const) {
    it(`refuses a login answer that names ${what}, ends that session and remembers nothing`, async () => {
      const api = fakeApi((await account(FLOOR_KDF, 1, answered)).routes);
      const app = await signIn();
      expect(await screen.findByRole('alert')).toHaveTextContent(
        'The server answered for a different account than the one you typed. Lockit stopped the sign-in',
      );
      await waitFor(() => expect(api.to('POST', apiPaths.logout)).toHaveLength(1));
      expect(app.keyring.vault).toBeNull();
      // Nothing of that answer was remembered, under either name.
      await expect(checkRememberedKeyGeneration('alice', 0)).resolves.toBeUndefined();
      await expect(checkRememberedKeyGeneration(answered, 0)).resolves.toBeUndefined();
    });
  }

  it('accepts a login answer that spells the typed name in another case, and remembers it under the typed name', async () => {
    fakeApi((await account(FLOOR_KDF, 2, 'Alice')).routes);
    const app = await signIn();
    await waitFor(() => expect(app.pathname()).toBe('/home'));
    await expect(checkRememberedKeyGeneration('alice', 1)).rejects.toThrow(/older key/);
  });

  it('remembers the key generation once the vault key unwrapped under it', async () => {
    const { routes } = await account(FLOOR_KDF, 3);
    fakeApi(routes);
    const app = await signIn();
    await waitFor(() => expect(app.pathname()).toBe('/home'));
    expect(app.keyring.vault?.keyGeneration).toBe(3);
    await expect(checkRememberedKeyGeneration('alice', 2)).rejects.toThrow(/older key \(generation 2\)/);
  });

  it('refuses a wrap presented as a newer generation than it was made for', async () => {
    const { routes, kdf, salt } = await account(FLOOR_KDF, 0);
    const api = fakeApi({
      ...routes,
      [route('POST', apiPaths.prelogin)]: { status: 200, body: { message: 'OK', data: { kdf, salt, keyGeneration: 5 } } },
    });
    const app = await signIn();
    expect(await screen.findByRole('alert')).toHaveTextContent(/could not unlock your vault/);
    await waitFor(() => expect(api.to('POST', apiPaths.logout)).toHaveLength(1));
    expect(app.keyring.vault).toBeNull();
    await expect(checkRememberedKeyGeneration('alice', 0)).resolves.toBeUndefined();
  });

  it('refuses the old floor (19 MiB, t = 2) on a browser that never used the account, and sends nothing after prelogin', async () => {
    const { routes } = await account(OLD_FLOOR);
    const api = fakeApi(routes);
    const app = await signIn();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The server asked for key-derivation settings weaker than Lockit allows (memory 19456 KiB, minimum 65536 KiB; passes 2, minimum 3). Sign-in was stopped to protect your password.',
    );
    expect(sentAfterPrelogin(api)).toHaveLength(0);
    expect(app.keyring.vault).toBeNull();
  });

  it('signs in once under old params this browser used, then re-wraps under the defaults with the same password', async () => {
    await rememberKdfParams('alice', OLD_FLOOR);
    const { routes, vaultKeyBytes } = await account(OLD_FLOOR);
    const api = fakeApi({
      ...routes,
      [route('PUT', apiPaths.changePassword)]: { status: 200, body: { message: 'Password updated' } },
    });
    const app = await signIn();
    await waitFor(() => expect(app.pathname()).toBe('/home'));
    const [change] = api.to('PUT', apiPaths.changePassword);
    const body = change!.body as {
      kdf: KdfParams;
      salt: string;
      protectedKey: string;
      keyGeneration: number;
      newPassword: string;
    };
    expect(body.kdf).toEqual({ algorithm: 'argon2id', memoryKiB: 65536, iterations: 3, parallelism: 4 });
    expect(body.keyGeneration).toBe(1);
    const newKeys = await deriveKeysFromPassword(PASSWORD, body.salt, body.kdf);
    expect(body.newPassword).toBe(newKeys.authKey);
    expect(await unwrapVaultKey(body.protectedKey, newKeys.wrapKey, body.kdf, body.salt, 1)).toEqual(vaultKeyBytes);
    expect(app.keyring.vault).toMatchObject({ kdf: body.kdf, salt: body.salt, keyGeneration: 1 });
    // From now on this browser refuses the old params too.
    await expect(checkRememberedKdfParams('alice', OLD_FLOOR)).rejects.toThrow(/this browser already used/);
  });

  it('refuses params beyond what this device can run before any work, and sends nothing after prelogin', async () => {
    Object.defineProperty(navigator, 'deviceMemory', { value: 1, configurable: true });
    onTestFinished(() => {
      delete (navigator as { deviceMemory?: number }).deviceMemory;
    });
    const { routes, salt } = await account();
    const heavy: KdfParams = { algorithm: 'argon2id', memoryKiB: 512 * 1024, iterations: 3, parallelism: 4 };
    const api = fakeApi({
      ...routes,
      [route('POST', apiPaths.prelogin)]: { status: 200, body: { message: 'OK', data: { kdf: heavy, salt, keyGeneration: 0 } } },
    });
    const app = await signIn();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The server asked for key-derivation settings heavier than this device can run (512 MiB of memory and 3 passes; this device allows at most 128 MiB and 10 passes at that size). Sign-in was stopped before any work started, so the page does not freeze.',
    );
    expect(sentAfterPrelogin(api)).toHaveLength(0);
    expect(app.keyring.vault).toBeNull();
  });
});
