import { accountRefOf } from '../device-memory/account-ref';
import type { KeyPlatform, VaultAccount } from '../keys/client-keys';
import { checkServerKeySettings } from '../keys/key-settings-policy';
import { openSignedInVault } from '../keys/open-signed-in-vault';
import { upgradeBelowFloor } from '../keys/rewrap-vault-key';
import { PendingSecondFactor } from './pending-second-factor';

/** The password was right and the vault is open. */
export interface SignedIn<V> {
  kind: 'signed-in';
  message: string;
  vault: V;
}

/** The password was right; the account asks for a second factor before it opens a session. */
export interface SecondFactorNeeded<V> {
  kind: 'second-factor';
  pending: PendingSecondFactor<V>;
}

/**
 * Sign-in, zero-knowledge style: prelogin -> every check of its key settings -> derive keys ->
 * login with authKey -> unwrap the vault key; or, for an account with a second factor, a
 * PendingSecondFactor that finishes the same unwrap once the factor is accepted.
 *
 * Security invariants:
 * - Nothing is sent after prelogin unless its params pass the policy and fit this device, its
 *   params are no weaker and its key generation no lower than this device already saw for the
 *   account (checkServerKeySettings; KdfParamsRejectedError otherwise): a hostile server cannot
 *   get an authKey derived with weak settings, freeze the client, nor roll a password change
 *   back unnoticed.
 * - The account's memory is looked up under the ref of the name the person typed, never a name
 *   the server answers.
 * - The vault key is unwrapped with the params and salt checked at prelogin, never with anything
 *   login (or the second step) returns; the wrap's associated data binds them.
 * - The master password goes only into the KDF; the server sees only authKey. While a second
 *   factor is pending, only the non-extractable wrapKey is kept, in memory.
 * - Params below today's floor pass only for an account this device already used with them;
 *   once the vault opened, the same password re-wraps it under the defaults.
 *
 * Errors: KdfParamsRejectedError, ApiError (401/403/429...), NetworkError,
 * UnexpectedResponseError, and VaultUnlockError after a successful login.
 */
export async function signIn<V extends VaultAccount>(
  platform: KeyPlatform<V>,
  username: string,
  password: string,
): Promise<SignedIn<V> | SecondFactorNeeded<V>> {
  const account = await accountRefOf(username);
  const { data: pre } = await platform.api.call('prelogin', { body: { username } });
  const { kdf, keyGeneration, belowFloor } = await checkServerKeySettings(platform.memory, account, pre, platform.device());
  const keys = await platform.derive(password, pre.salt, kdf, { legacyFloor: belowFloor });
  const answer = await platform.api.call('login', { body: { username, password: keys.authKey } });
  const checked = { username, account, kdf, salt: pre.salt, keyGeneration, wrapKey: keys.wrapKey };
  if ('secondFactor' in answer.data) {
    return { kind: 'second-factor', pending: new PendingSecondFactor(platform, answer.data.secondFactor, checked) };
  }
  const vault = await openSignedInVault(platform, checked, answer.data);
  return {
    kind: 'signed-in',
    message: answer.message,
    vault: belowFloor ? await upgradeBelowFloor(platform, vault, keys, password) : vault,
  };
}
