import { fromBase64Url, toBase64Url, wrapVaultKeyForPasskey } from '@lockit/crypto';
import { openWireEntry } from '@lockit/test-support';
import { describe, expect, it } from 'vitest';
import {
  accountRefOf,
  MemoryOfflineCopyStore,
  NoOfflinePasskeyError,
  PasskeyUnlockError,
  saveServedCopy,
  signIn,
  unlockOfflineCopyWithPasskey,
  type OfflinePasskeyUnlock,
  type OfflinePlatform,
  type OpenVault,
} from '../src';
import type { PasskeyCeremony } from '../src/keys/passkey-keys';
import { keptPasskeyUnlocks } from '../src/offline/passkey-unlock-store';
import { coreDevice, databaseKind } from './support/core-against-server';
import { useCoreServer } from './support/use-core-server';

const env = useCoreServer();

const ENTRY = { serviceName: 'Birch Savings', username: 'ada', password: 'b1rch-offline!' };
const USER_ID = '8b0c7f4e-54a5-4a49-9d4f-5a1c2b3d4e5f';
const CREDENTIAL = toBase64Url(new Uint8Array(16).fill(7));

/**
 * The authenticator's side of the ceremony: it answers for `credentialId` with `prf` as its PRF
 * secret and the account's user handle, and records the options it was asked with.
 */
function authenticator(prf: Uint8Array, credentialId = CREDENTIAL) {
  const asked: Array<Record<string, unknown>> = [];
  const ceremony: PasskeyCeremony = (options) => {
    asked.push(options);
    const userHandle = toBase64Url(new TextEncoder().encode(USER_ID));
    return Promise.resolve({ response: { id: credentialId, response: { userHandle } }, credentialId, prfOutput: prf.slice() });
  };
  return { ceremony, asked };
}

/** A signed-in device with an offline copy, and the passkey unlock key an online unlock would have kept. */
async function deviceWithPasskey() {
  const { account } = await env.account([ENTRY]);
  const device = coreDevice(env.proxy.url);
  const result = await signIn(device.platform, account.username, account.password);
  if (result.kind !== 'signed-in') throw new Error(`expected a signed-in result, got ${result.kind}`);
  const ref = await accountRefOf(account.username);
  const copies = new MemoryOfflineCopyStore();
  await saveServedCopy(device.platform.api, copies, ref, account.username);
  const prf = globalThis.crypto.getRandomValues(new Uint8Array(32));
  const unlockKey = await wrapVaultKeyForPasskey(account.vaultKeyBytes, prf, {
    userId: USER_ID,
    credentialId: CREDENTIAL,
    keyEpoch: 0,
  });
  const unlock: OfflinePasskeyUnlock = { credentialId: CREDENTIAL, userId: USER_ID, unlockKey, rpId: 'localhost' };
  await copies.passkeyUnlocks.write(ref, [unlock]);
  const { api: _api, ...withoutServer } = device.platform;
  const offline: OfflinePlatform<OpenVault> = { ...withoutServer, copies };
  return { offline, copies, ref, prf };
}

describe(`unlocking the offline copy with a passkey (${databaseKind})`, () => {
  it('opens the copy with the passkey an online unlock kept, asking only that passkey, with no server', async () => {
    const { offline, prf } = await deviceWithPasskey();
    const { ceremony, asked } = authenticator(prf);
    const requestsBefore = env.proxy.recorded.length;

    const { vault, copy } = await unlockOfflineCopyWithPasskey(offline, ceremony);

    expect(env.proxy.recorded.length).toBe(requestsBefore);
    await expect(openWireEntry(vault.vaultKey, copy.entries[0] as Record<string, unknown>)).resolves.toMatchObject(ENTRY);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      allowCredentials: [{ id: CREDENTIAL, type: 'public-key' }],
      userVerification: 'required',
      rpId: 'localhost',
    });
    // A fresh random challenge each time: nobody checks it, but a fixed one would be replayable anywhere.
    expect(fromBase64Url(asked[0]!['challenge'] as string)).toHaveLength(32);
    await unlockOfflineCopyWithPasskey(offline, ceremony);
    expect(asked[1]!['challenge']).not.toBe(asked[0]!['challenge']);
  });

  it("refuses another authenticator's secret and a credential it did not keep, and opens nothing", async () => {
    const { offline } = await deviceWithPasskey();
    const wrongSecret = authenticator(globalThis.crypto.getRandomValues(new Uint8Array(32)));
    await expect(unlockOfflineCopyWithPasskey(offline, wrongSecret.ceremony)).rejects.toBeInstanceOf(PasskeyUnlockError);
    const otherCredential = authenticator(new Uint8Array(32), toBase64Url(new Uint8Array(16).fill(9)));
    await expect(unlockOfflineCopyWithPasskey(offline, otherCredential.ceremony)).rejects.toBeInstanceOf(PasskeyUnlockError);
  });

  it('says plainly that no passkey can open the copy when none was kept, or what is kept is damaged, without asking the authenticator', async () => {
    const { offline, copies, ref, prf } = await deviceWithPasskey();
    for (const stored of [[], [{ credentialId: 1 }], 'garbage']) {
      await copies.passkeyUnlocks.write(ref, stored as unknown as OfflinePasskeyUnlock[]);
      const { ceremony, asked } = authenticator(prf);
      const refused = await unlockOfflineCopyWithPasskey(offline, ceremony).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(NoOfflinePasskeyError);
      expect((refused as Error).message).toBe(
        'No passkey has unlocked your vault on this device while your server answered, so none can open the offline copy. Enter your master password.',
      );
      expect(asked).toEqual([]);
    }
  });

  it('erases the kept unlock keys with the copy', async () => {
    const { copies, ref } = await deviceWithPasskey();
    await copies.erase(ref);
    expect(await copies.passkeyUnlocks.read(ref)).toBeUndefined();
  });
});

describe('the passkey unlock keys a device keeps', () => {
  const unlock = (credentialId: string, unlockKey = `key-${credentialId}`): OfflinePasskeyUnlock => ({
    credentialId,
    userId: USER_ID,
    unlockKey,
  });

  it('keeps the one that just opened first, replacing its older key, and drops passkeys the server no longer offers', () => {
    const kept = [unlock('a', 'old-a'), unlock('b'), unlock('c')];
    expect(keptPasskeyUnlocks(kept, unlock('a', 'new-a'), ['a', 'c'])).toEqual([unlock('a', 'new-a'), unlock('c')]);
  });

  it('keeps at most ten', () => {
    const many = Array.from({ length: 12 }, (_, i) => unlock(`p${i}`));
    const offered = many.map((kept) => kept.credentialId).concat('new');
    const result = keptPasskeyUnlocks(many, unlock('new'), offered);
    expect(result).toHaveLength(10);
    expect(result[0]).toEqual(unlock('new'));
  });
});
