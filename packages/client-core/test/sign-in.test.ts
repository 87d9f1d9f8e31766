import { apiPaths } from '@lockit/contract';
import { KdfParamsRejectedError, KeyEpochRolledBackError } from '@lockit/crypto';
import { openWireEntry, uniqueName } from '@lockit/test-support';
import { describe, expect, it } from 'vitest';
import {
  accountRefOf,
  ApiError,
  signIn,
  unlockWithPassword,
  UnexpectedResponseError,
  UnknownSessionAccountError,
  VaultUnlockError,
  WrongMasterPasswordError,
  type OpenVault,
  type SignedIn,
} from '../src';
import { coreDevice, databaseKind } from './support/core-against-server';
import { useCoreServer } from './support/use-core-server';

const env = useCoreServer();

function signedIn(result: Awaited<ReturnType<typeof signIn<OpenVault>>>): SignedIn<OpenVault> {
  if (result.kind !== 'signed-in') throw new Error(`expected a signed-in result, got ${result.kind}`);
  return result;
}

describe(`the client core signs in against the real server (${databaseKind})`, () => {
  it('signs in with the master password and opens the vault key that decrypts the stored entries', async () => {
    const { account, entries } = await env.account([{ serviceName: 'Birch Bank', username: 'ada', password: 'b1rch!' }]);
    const device = coreDevice(env.server.url);
    const result = signedIn(await signIn(device.platform, account.username, account.password));
    expect(result.message).toBeTruthy();
    expect(result.vault.username).toBe(account.username);

    const list = await device.platform.api.call('list-entries', {});
    expect(list.data).toHaveLength(1);
    expect(list.data[0]!.id).toBe(entries[0]!.id);
    await expect(openWireEntry(result.vault.vaultKey, list.data[0] as Record<string, unknown>)).resolves.toMatchObject({
      serviceName: 'Birch Bank',
      password: 'b1rch!',
    });
    // Remembered under the typed name's ref, and the session bound to it for later Unlocks.
    const ref = await accountRefOf(account.username);
    expect(await device.memory.sessionAccount()).toBe(ref);
    expect(await device.memory.remembersKdfParams(ref)).toBe(true);
  });

  it('sends only the authKey: the master password never leaves the device', async () => {
    const { account } = await env.account();
    const device = coreDevice(env.proxy.url);
    signedIn(await signIn(device.platform, account.username, account.password));
    expect(env.proxy.requestsContaining(account.password)).toEqual([]);
  });

  it('says the password was wrong with the server answer, and opens nothing', async () => {
    const { account } = await env.account();
    const device = coreDevice(env.server.url);
    const failure = await signIn(device.platform, account.username, `${account.password}x`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(401);
    expect(await device.memory.sessionAccount()).toBeNull();
  });

  it('unlocks a signed-in session with the master password alone, and refuses a wrong one', async () => {
    const { account } = await env.account();
    const device = coreDevice(env.server.url);
    const first = signedIn(await signIn(device.platform, account.username, account.password));
    const unlocked = await unlockWithPassword(device.platform, account.password, first.vault.username);
    expect(unlocked.protectedKey).toBe(first.vault.protectedKey);
    await expect(unlockWithPassword(device.platform, 'not the password', first.vault.username)).rejects.toBeInstanceOf(
      WrongMasterPasswordError,
    );
  });

  it('refuses to unlock a session this device never signed in, before any key is derived', async () => {
    const { account, client } = await env.account();
    const device = coreDevice(env.server.url);
    // Another program's cookies for the same account: a session, but none this device's sign-in bound.
    for (const [name, value] of client.cookies) device.cookies.cookies.set(name, value);
    await expect(unlockWithPassword(device.platform, account.password, account.username)).rejects.toBeInstanceOf(
      UnknownSessionAccountError,
    );
  });

  it('refreshes an expired access cookie once and repeats the call; after logout the session is gone', async () => {
    const { account } = await env.account();
    const device = coreDevice(env.server.url);
    signedIn(await signIn(device.platform, account.username, account.password));
    const accessCookie = [...device.cookies.cookies.keys()].find((name) => name.includes('access'));
    expect(accessCookie).toBeDefined();
    device.cookies.cookies.delete(accessCookie!);

    const profile = await device.platform.api.call('profile', {});
    expect(profile.data.username).toBe(account.username);
    expect(device.cookies.cookies.has(accessCookie!)).toBe(true);

    await device.platform.api.call('logout', {});
    const after = await device.platform.api.call('profile', {}).catch((error: unknown) => error);
    expect(after).toBeInstanceOf(ApiError);
    expect((after as ApiError).status).toBe(401);
  });
});

describe(`the client core against a lying server (${databaseKind})`, () => {
  it('refuses a login answer that names a look-alike account, and remembers nothing under it', async () => {
    const { account } = await env.account();
    const lookAlike = account.username.replace('u', '\u0443');
    env.proxy.rewrite({
      method: 'POST',
      path: apiPaths.login,
      rewrite: (response) => {
        (response.body as { data: { username: string } }).data.username = lookAlike;
      },
    });
    const device = coreDevice(env.proxy.url);
    await expect(signIn(device.platform, account.username, account.password)).rejects.toBeInstanceOf(VaultUnlockError);
    expect(await device.memory.sessionAccount()).toBeNull();
    expect(await device.memory.remembersKdfParams(await accountRefOf(account.username))).toBe(false);
  });

  it('catches a password change rolled back at prelogin and sends nothing derived from the password', async () => {
    const { account } = await env.account();
    const device = coreDevice(env.proxy.url);
    signedIn(await signIn(device.platform, account.username, account.password));
    // The device saw generation 1 after this change; the server then answers generation 0 again.
    const { rewrapVaultKey } = await import('../src');
    const unlocked = await unlockWithPassword(device.platform, account.password, account.username);
    const oldKeys = await device.platform.derive(account.password, unlocked.salt, unlocked.kdf);
    await rewrapVaultKey(device.platform, unlocked.account, unlocked, oldKeys, account.password);

    env.proxy.rewrite({
      method: 'POST',
      path: apiPaths.prelogin,
      rewrite: (response) => {
        (response.body as { data: { keyGeneration: number } }).data.keyGeneration = 0;
      },
    });
    const loginsBefore = env.proxy.recorded.filter((request) => request.path === apiPaths.login).length;
    await expect(signIn(device.platform, account.username, account.password)).rejects.toBeInstanceOf(KdfParamsRejectedError);
    expect(env.proxy.recorded.filter((request) => request.path === apiPaths.login).length).toBe(loginsBefore);
  });

  it('refuses a wrapped key of a key epoch below what this device saw, at sign-in and at Unlock, and one passed off as the current epoch', async () => {
    const { account } = await env.account();
    const device = coreDevice(env.proxy.url);
    // This device used the vault key of epoch 1 (it rotated, or a passkey's wrap of epoch 1 opened).
    await device.memory.rememberKeyEpoch(await accountRefOf(account.username), 1);
    const failure = await signIn(device.platform, account.username, account.password).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(VaultUnlockError);
    expect((failure as Error).message).toMatch(/^The server answered a vault key from before a key rotation \(key epoch 0\)/);
    expect(await device.memory.sessionAccount()).toBeNull();

    // The same wrap named as epoch 1: its associated data binds epoch 0, so it fails verification.
    env.proxy.rewrite({
      method: 'POST',
      path: apiPaths.login,
      rewrite: (response) => {
        (response.body as { data: { keyEpoch: number } }).data.keyEpoch = 1;
      },
    });
    const passedOff = await signIn(device.platform, account.username, account.password).catch((error: unknown) => error);
    expect(passedOff).toBeInstanceOf(VaultUnlockError);
    expect((passedOff as Error).message).toBe("Lockit could not unlock your vault: the server's key data failed verification.");

    await device.memory.bindSession(await accountRefOf(account.username));
    await expect(unlockWithPassword(device.platform, account.password, account.username)).rejects.toBeInstanceOf(
      KeyEpochRolledBackError,
    );
  });

  it('refuses KDF params below the policy from a server, deriving and sending nothing', async () => {
    const device = coreDevice(env.proxy.url);
    env.proxy.rewrite({
      method: 'POST',
      path: apiPaths.prelogin,
      rewrite: (response) => {
        (response.body as { data: { kdf: { memoryKiB: number } } }).data.kdf.memoryKiB = 1024;
      },
    });
    const name = uniqueName('weak');
    await expect(signIn(device.platform, name, 'any password at all')).rejects.toBeInstanceOf(KdfParamsRejectedError);
    expect(env.proxy.recorded.filter((request) => request.path === apiPaths.login && request.body.includes(name))).toEqual([]);
  });

  it('treats an answer the contract does not describe as no answer, never as data', async () => {
    const { account } = await env.account();
    const device = coreDevice(env.proxy.url);
    signedIn(await signIn(device.platform, account.username, account.password));
    env.proxy.rewrite({ method: 'GET', path: apiPaths.profile, rewrite: () => ({ message: 'ok', data: { username: 42 } }) });
    await expect(device.platform.api.call('profile', {})).rejects.toBeInstanceOf(UnexpectedResponseError);
  });

  it('refuses an Unlock whose key material was swapped for another account’s wrapped key', async () => {
    // Each with a password of its own: accounts of one test process otherwise share one derivation.
    const victim = await env.account([], { password: `victim ${uniqueName()}` });
    const other = await env.account([], { password: `other ${uniqueName()}` });
    const device = coreDevice(env.proxy.url);
    signedIn(await signIn(device.platform, victim.account.username, victim.account.password));
    env.proxy.rewrite({
      method: 'GET',
      path: apiPaths.keyMaterial,
      rewrite: (response) => {
        (response.body as { data: { protectedKey: string } }).data.protectedKey = other.account.protectedKey;
      },
    });
    await expect(unlockWithPassword(device.platform, victim.account.password, victim.account.username)).rejects.toBeInstanceOf(
      WrongMasterPasswordError,
    );
  });
});
