import type { KeyPlatform } from '@lockit/client-core';
import { currentDevice } from './account-key-policy';
import { deriveKeys } from './derive-keys';
import { deviceMemory } from './device-memory';
import { api } from './http';
import type { UnlockedVault } from './keyring';
import { unlockedVaultFromKeyBytes } from './unlocked-vault-from-key-bytes';

/**
 * This browser as the client core's key operations see it: the app's API client,
 * localStorage's anti-rollback memory, Argon2id in a worker, the device's hints, and a vault
 * opened with a reload seal.
 */
export const keyPlatform: KeyPlatform<UnlockedVault> = {
  api,
  memory: deviceMemory,
  derive: deriveKeys,
  device: currentDevice,
  open: unlockedVaultFromKeyBytes,
};
