import { rewrapVaultKey as rewrapInCore, type AccountRef, type Rewrapped } from '@lockit/client-core';
import type { AccountKeys } from '@lockit/crypto';
import { keyPlatform } from './key-platform';
import type { KeyMaterial } from './keyring';

export type { Rewrapped } from '@lockit/client-core';

/** The client core's re-wrap of the vault key (see its doc) with this browser's platform. */
export function rewrapVaultKey(
  account: AccountRef,
  material: KeyMaterial,
  oldKeys: AccountKeys,
  newPassword: string,
): Promise<Rewrapped> {
  return rewrapInCore(keyPlatform, account, material, oldKeys, newPassword);
}
