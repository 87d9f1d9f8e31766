import { accountRefOf } from '@lockit/client-core';
import type { KdfParams } from '@lockit/crypto';
import { deviceMemory } from '@/lib/device-memory';

/**
 * This browser's DeviceMemory, addressed by the name a person would type: what the tests set up
 * before a screen runs, and read back after.
 */
const ref = accountRefOf;

export const rememberKdfParams = async (name: string, params: KdfParams) =>
  deviceMemory.rememberKdfParams(await ref(name), params);
export const checkRememberedKdfParams = async (name: string, params: KdfParams) =>
  deviceMemory.checkKdfParams(await ref(name), params);
export const rememberKeyGeneration = async (name: string, generation: number) =>
  deviceMemory.rememberKeyGeneration(await ref(name), generation);
export const checkRememberedKeyGeneration = async (name: string, generation: number) =>
  deviceMemory.checkKeyGeneration(await ref(name), generation);
export const rememberKeyEpoch = async (name: string, epoch: number) => deviceMemory.rememberKeyEpoch(await ref(name), epoch);
export const checkRememberedKeyEpoch = async (name: string, epoch: number) => deviceMemory.checkKeyEpoch(await ref(name), epoch);
export const rememberVaultCounter = async (name: string, counter: number) =>
  deviceMemory.rememberVaultCounter(await ref(name), counter);
export const rememberedVaultCounter = async (name: string) => deviceMemory.vaultCounter(await ref(name));
/** As a sign-in as `name` in this browser leaves it: the session belongs to that account. */
export const bindSessionTo = async (name: string) => deviceMemory.bindSession(await ref(name));
