import { KdfParamsRejectedError } from '@lockit/crypto';
import { openWireEntry } from '@lockit/test-support';
import { describe, expect, it } from 'vitest';
import {
  accountRefOf,
  MemoryOfflineCopyStore,
  NoOfflineCopyError,
  OfflineCopyDamagedError,
  rewrapVaultKey,
  saveServedCopy,
  signIn,
  unlockOfflineCopy,
  unlockWithPassword,
  WrongMasterPasswordError,
  type OfflinePlatform,
  type OpenVault,
} from '../src';
import { coreDevice, databaseKind, type CoreDevice } from './support/core-against-server';
import { useCoreServer } from './support/use-core-server';

const env = useCoreServer();

const ENTRY = { serviceName: 'Alder Credit Union', username: 'ada', password: 'alder-0ffline!' };

/** The device's key platform with no API client at all: nothing it does can reach a server. */
function offline(device: CoreDevice, copies: MemoryOfflineCopyStore): OfflinePlatform<OpenVault> {
  const { api: _api, ...withoutServer } = device.platform;
  return { ...withoutServer, copies };
}

async function signedInDevice(): Promise<{
  device: CoreDevice;
  copies: MemoryOfflineCopyStore;
  password: string;
  username: string;
}> {
  const { account } = await env.account([ENTRY]);
  const device = coreDevice(env.proxy.url);
  const result = await signIn(device.platform, account.username, account.password);
  if (result.kind !== 'signed-in') throw new Error(`expected a signed-in result, got ${result.kind}`);
  const copies = new MemoryOfflineCopyStore();
  await saveServedCopy(device.platform.api, copies, await accountRefOf(account.username), account.username);
  return { device, copies, password: account.password, username: account.username };
}

describe(`the offline copy (${databaseKind})`, () => {
  it('keeps what the server served, ciphertext only, and unlocks it with the master password and no server', async () => {
    const { device, copies, password, username } = await signedInDevice();
    const copy = await copies.read(await accountRefOf(username));
    const stored = JSON.stringify(copy);
    for (const secret of [ENTRY.serviceName, ENTRY.password, password]) expect(stored).not.toContain(secret);

    const requestsBefore = env.proxy.recorded.length;
    const { vault, copy: opened } = await unlockOfflineCopy(offline(device, copies), password);
    expect(env.proxy.recorded.length).toBe(requestsBefore);
    expect(opened.entries).toHaveLength(1);
    await expect(openWireEntry(vault.vaultKey, opened.entries[0] as Record<string, unknown>)).resolves.toMatchObject(ENTRY);
  });

  it('refuses a wrong master password and opens nothing', async () => {
    const { device, copies } = await signedInDevice();
    await expect(unlockOfflineCopy(offline(device, copies), 'not the password')).rejects.toBeInstanceOf(WrongMasterPasswordError);
  });

  it('says plainly when this device has no copy, and when the copy is damaged or filed under another account', async () => {
    const { device, copies, password, username } = await signedInDevice();
    const ref = await accountRefOf(username);
    const copy = await copies.read(ref);

    await copies.erase(ref);
    const missing = await unlockOfflineCopy(offline(device, copies), password).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(NoOfflineCopyError);
    expect((missing as Error).message).toBe(
      'This device has no offline copy of your vault. Connect to your Lockit server to unlock it.',
    );

    const damaged = [
      { ...(copy as object), entries: 'not a list' },
      { ...(copy as object), keyMaterial: { salt: 1 } },
      { ...(copy as object), account: await accountRefOf('someone-else') },
      'garbage',
    ];
    for (const value of damaged) {
      const store = new MemoryOfflineCopyStore();
      store.read = () => Promise.resolve(value);
      await expect(unlockOfflineCopy(offline(device, store), password)).rejects.toBeInstanceOf(OfflineCopyDamagedError);
    }
  });

  it('refuses a copy older than a password change this device saw, before deriving anything', async () => {
    const { device, copies, password, username } = await signedInDevice();
    // The master password changes on this device: key generation 1 (and the change's stronger
    // KDF settings) are remembered, so the copy's older key material is a rollback.
    const unlocked = await unlockWithPassword(device.platform, password, username);
    const keys = await device.platform.derive(password, unlocked.salt, unlocked.kdf);
    await rewrapVaultKey(device.platform, unlocked.account, unlocked, keys, `${password} and more`);

    let derived = 0;
    const platform = offline(device, copies);
    const counting: OfflinePlatform<OpenVault> = { ...platform, derive: (...args) => ((derived += 1), platform.derive(...args)) };
    const refused = await unlockOfflineCopy(counting, password).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(KdfParamsRejectedError);
    expect(derived).toBe(0);

    // A copy saved after the change opens with the new password.
    await saveServedCopy(device.platform.api, copies, await accountRefOf(username), username);
    await expect(unlockOfflineCopy(platform, `${password} and more`)).resolves.toMatchObject({ belowFloor: false });
  });
});
