import { keyMaterialResponseSchema, VAULT_STATE_HEADER } from '@lockit/contract';
import type { AccountRef } from '../device-memory/account-ref';
import type { ApiClient } from '../http/api-client';
import type { KeyPlatform, VaultAccount } from '../keys/client-keys';
import { unlockWithKeyMaterial } from '../keys/unlock-with-password';
import { OfflineCopyDamagedError, readOfflineCopy, type OfflineCopy, type OfflineCopyStore } from './offline-copy';

/** An Unlock with no server: the key platform without its API client, and where copies are. */
export interface OfflinePlatform<V> extends Omit<KeyPlatform<V>, 'api'> {
  copies: OfflineCopyStore;
}

/**
 * Fetches what an offline copy holds (key material, the list with its vault state, the folders)
 * and keeps it for `account`, replacing the one before. For clients that load the vault through
 * the core; a client that fetched these already saves what it has with `store.write`.
 */
export async function saveServedCopy(
  api: ApiClient,
  store: OfflineCopyStore,
  account: AccountRef,
  username: string,
  clock: () => number = Date.now,
): Promise<OfflineCopy> {
  const savedAt = clock();
  const [material, list, folders] = await Promise.all([
    api.call('key-material', {}),
    api.exchange('list-entries', {}),
    api.call('list-folders', {}),
  ]);
  const copy: OfflineCopy = {
    v: 1,
    account,
    username,
    savedAt,
    keyMaterial: material.data,
    entries: list.body.data,
    vaultState: list.headers.get(VAULT_STATE_HEADER),
    folders: folders.data,
  };
  await store.write(copy);
  return copy;
}

/**
 * Unlock from this device's offline copy, with no server: the copy of the account this device's
 * session is bound to, its key material checked exactly as a served one (unlockWithKeyMaterial),
 * then unwrapped with the password. The caller opens `copy.entries` and checks them with
 * `copy.vaultState` as it would a served list.
 *
 * Security invariants: the account is the one this device bound at sign-in, never a name in the
 * copy; a copy whose key generation, epoch or KDF params are below what this device saw (it
 * predates a password change or rotation seen here) is refused like a server that rolls them
 * back. Params below today's floor are not re-wrapped offline (`belowFloor` says so): that needs
 * the server.
 *
 * Errors: UnknownSessionAccountError, NoOfflineCopyError, OfflineCopyDamagedError,
 * KdfParamsRejectedError (and its rollback errors), WrongMasterPasswordError.
 */
export async function unlockOfflineCopy<V extends VaultAccount>(
  platform: OfflinePlatform<V>,
  password: string,
  options: { whileDeriving?: () => void } = {},
): Promise<{ vault: V; copy: OfflineCopy; belowFloor: boolean }> {
  const account = await platform.memory.requireSessionAccount();
  const copy = await readOfflineCopy(platform.copies, account);
  const material = keyMaterialResponseSchema.shape.data.safeParse(copy.keyMaterial);
  if (!material.success) throw new OfflineCopyDamagedError();
  const { vault, belowFloor } = await unlockWithKeyMaterial(platform, account, material.data, password, copy.username, options);
  return { vault, copy, belowFloor };
}
