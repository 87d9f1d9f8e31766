import type { AccountKeys, DeviceProfile, KdfCheckOptions, KdfParams } from '@lockit/crypto';
import type { AccountRef } from '../device-memory/account-ref';
import type { DeviceMemory } from '../device-memory/device-memory';
import type { ApiClient } from '../http/api-client';

/** What the server stores of an account's keys: none of it secret. */
export interface KeyMaterial {
  kdf: KdfParams;
  salt: string;
  /** The vault key wrapped under the master password's wrapKey. */
  protectedKey: string;
  /** The generation protectedKey was wrapped for; absent means 0. A password change sends this + 1. */
  keyGeneration?: number | undefined;
  /**
   * The key epoch of the vault key (key rotations; absent means 0), proved by the wrap that
   * opened: every wrap binds it. A password change and a passkey's unlock key keep it; a rotation
   * sends this + 1.
   */
  keyEpoch?: number | undefined;
}

/** The key material to check, then unwrap: the server's answer, or the offline copy's. */
export type UncheckedKeyMaterial = Omit<KeyMaterial, 'kdf' | 'keyGeneration' | 'keyEpoch'> & {
  kdf: unknown;
  keyGeneration?: unknown;
  keyEpoch?: unknown;
};

/** What an unlock knows of the account besides the key. */
export interface VaultAccount extends KeyMaterial {
  /** The name to show. The server's word: never used to look anything up in this device's memory. */
  username: string;
  /** This device's ref of the account, made from the name the person typed. */
  account: AccountRef;
}

/**
 * masterKey = Argon2id(password, salt, params), then authKey and wrapKey by HKDF: the
 * platform's way (a page derives in a worker, Node in its thread). Must check the params
 * against the policy before any work (checkKdfParams) and throw KdfParamsRejectedError if
 * they fail; `deriveKeysFromPassword` of @lockit/crypto does both.
 */
export type DeriveKeys = (password: string, salt: string, params: KdfParams, options?: KdfCheckOptions) => Promise<AccountKeys>;

/**
 * Turns raw vault key bytes into the platform's unlocked vault (the web app imports the key,
 * derives the integrity key and seals a copy for a reload of the tab).
 *
 * Invariant the platform must keep: `bytes` are wiped before it returns or throws, and what
 * it keeps are non-extractable keys only.
 */
export type KeyOpener<V> = (bytes: Uint8Array, account: VaultAccount) => Promise<V>;

/** What the client core's key operations need from the platform. */
export interface KeyPlatform<V> {
  api: ApiClient;
  memory: DeviceMemory;
  derive: DeriveKeys;
  /** What this device tells about itself, for the KDF ceiling. */
  device: () => DeviceProfile;
  open: KeyOpener<V>;
  /** Milliseconds since the epoch; Date.now where not given (tests pass their own). */
  clock?: () => number;
}
