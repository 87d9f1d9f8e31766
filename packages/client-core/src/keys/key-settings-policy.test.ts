import {
  DEFAULT_KDF_PARAMS,
  KdfParamsRejectedError,
  KeyEpochRolledBackError,
  KeyGenerationRolledBackError,
} from '@lockit/crypto';
import { describe, expect, it } from 'vitest';
import { accountRefOf } from '../device-memory/account-ref';
import { DeviceMemory } from '../device-memory/device-memory';
import { MemoryKeyValueStore } from '../platform/key-value-store';
import { AnsweredAccountMismatchError, checkAnsweredAccount } from './account-answer';
import { checkServerKeyEpoch, checkServerKeySettings } from './key-settings-policy';

const desktop = { memoryGiB: 8, mobile: false };
const OLD_FLOOR = { ...DEFAULT_KDF_PARAMS, memoryKiB: 19 * 1024, iterations: 2 };

async function deviceThatSawGeneration(generation: number) {
  const memory = new DeviceMemory(new MemoryKeyValueStore());
  const alice = await accountRefOf('alice');
  await memory.rememberKdfParams(alice, DEFAULT_KDF_PARAMS);
  await memory.rememberKeyGeneration(alice, generation);
  return { memory, alice };
}

describe("the server's key settings", () => {
  it('pass at or above what this device saw', async () => {
    const { memory, alice } = await deviceThatSawGeneration(2);
    await expect(checkServerKeySettings(memory, alice, { kdf: DEFAULT_KDF_PARAMS, keyGeneration: 2 }, desktop)).resolves.toEqual({
      kdf: DEFAULT_KDF_PARAMS,
      keyGeneration: 2,
      belowFloor: false,
    });
  });

  it('are refused when the key generation went back, whatever name the server gives the account', async () => {
    const { memory, alice } = await deviceThatSawGeneration(2);
    // The ref is this device's (what the person typed); the server's look-alike name plays no part.
    await expect(
      checkServerKeySettings(memory, alice, { kdf: DEFAULT_KDF_PARAMS, keyGeneration: 1 }, desktop),
    ).rejects.toBeInstanceOf(KeyGenerationRolledBackError);
  });

  it('below the floor pass only for an account this device used with them', async () => {
    const memory = new DeviceMemory(new MemoryKeyValueStore());
    const known = await accountRefOf('known');
    await memory.rememberKdfParams(known, OLD_FLOOR);
    await expect(checkServerKeySettings(memory, known, { kdf: OLD_FLOOR }, desktop)).resolves.toMatchObject({
      belowFloor: true,
      keyGeneration: 0,
    });
    await expect(checkServerKeySettings(memory, await accountRefOf('new'), { kdf: OLD_FLOOR }, desktop)).rejects.toBeInstanceOf(
      KdfParamsRejectedError,
    );
    await expect(checkServerKeySettings(memory, null, { kdf: OLD_FLOOR }, desktop)).rejects.toBeInstanceOf(
      KdfParamsRejectedError,
    );
  });

  it('are refused when the key generation is not a number Lockit reads', async () => {
    const memory = new DeviceMemory(new MemoryKeyValueStore());
    await expect(checkServerKeySettings(memory, null, { kdf: DEFAULT_KDF_PARAMS, keyGeneration: '2' }, desktop)).rejects.toThrow(
      /key generation Lockit cannot read/,
    );
  });
});

describe('the account a sign-in answer names', () => {
  it('may differ from the typed name only in case and normal form', () => {
    expect(() => checkAnsweredAccount('Alice', 'alice')).not.toThrow();
    expect(() => checkAnsweredAccount('ａｌｉｃｅ', 'alice')).not.toThrow();
  });

  it('is refused when it is a look-alike, another name, or missing', () => {
    expect(() => checkAnsweredAccount('alice', '\u0430lice')).toThrow(AnsweredAccountMismatchError);
    expect(() => checkAnsweredAccount('alice', 'mallory')).toThrow(AnsweredAccountMismatchError);
    expect(() => checkAnsweredAccount('alice', '')).toThrow(AnsweredAccountMismatchError);
  });
});

describe("the server's key epoch", () => {
  async function deviceThatSawEpoch(epoch: number) {
    const memory = new DeviceMemory(new MemoryKeyValueStore());
    const alice = await accountRefOf('alice');
    await memory.rememberKeyEpoch(alice, epoch);
    return { memory, alice };
  }

  it('passes at or above what this device saw, and reads an answer without one as epoch 0', async () => {
    const { memory, alice } = await deviceThatSawEpoch(1);
    await expect(checkServerKeyEpoch(memory, alice, { keyEpoch: 1 })).resolves.toBe(1);
    await expect(checkServerKeyEpoch(memory, alice, { keyEpoch: 3 })).resolves.toBe(3);
    const fresh = new DeviceMemory(new MemoryKeyValueStore());
    await expect(checkServerKeyEpoch(fresh, alice, {})).resolves.toBe(0);
  });

  it('is refused below what this device saw, an absent one included', async () => {
    const { memory, alice } = await deviceThatSawEpoch(1);
    await expect(checkServerKeyEpoch(memory, alice, { keyEpoch: 0 })).rejects.toBeInstanceOf(KeyEpochRolledBackError);
    await expect(checkServerKeyEpoch(memory, alice, {})).rejects.toBeInstanceOf(KeyEpochRolledBackError);
  });

  it.each([[-1], [1.5], ['1'], [null]])('is refused when unreadable (%j), with a message', async (keyEpoch) => {
    const { memory, alice } = await deviceThatSawEpoch(0);
    await expect(checkServerKeyEpoch(memory, alice, { keyEpoch })).rejects.toThrow(/key epoch Lockit cannot read/);
  });
});
