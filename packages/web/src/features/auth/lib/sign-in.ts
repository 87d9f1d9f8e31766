import { accountRefOf } from '@lockit/client-core';
import type { AccountKeys } from '@lockit/crypto';
import { checkServerKeySettings } from '@/lib/account-key-policy';
import { deriveKeys } from '@/lib/derive-keys';
import type { UnlockedVault } from '@/lib/keyring';
import { rewrapVaultKey } from '@/lib/rewrap-vault-key';
import { login, needsSecondFactor } from '../api/login';
import { prelogin } from '../api/prelogin';
import { openVault } from './open-vault';
import { PendingSecondFactor } from './second-factor-sign-in';

export { VaultUnlockError } from './open-vault';

export interface SignInResult {
  message: string;
  vault: UnlockedVault;
}

/** The password was right; the account asks for a second factor before it opens a session. */
export interface SecondFactorNeeded {
  secondFactor: PendingSecondFactor;
}

/**
 * Sign-in, zero-knowledge style:
 * prelogin -> checkKdfParams -> derive keys -> login with authKey -> unwrap the vault key,
 * or, for an account with a second factor, a PendingSecondFactor that finishes the
 * same unwrap once the factor is accepted.
 *
 * Security invariants:
 * - Nothing is sent after prelogin unless its params pass the floor/ceiling policy and fit
 *   this device, its salt is usable, its params are no weaker and its key generation no lower
 *   than this browser already saw for the account (checkServerKeySettings; KdfParamsRejectedError
 *   otherwise): a hostile server cannot get an authKey derived with weak settings, freeze the
 *   tab, nor roll a password change back unnoticed.
 * - Params below today's floor pass only for an account this browser already used with them;
 *   once the vault opened, the same password re-wraps it under the defaults (upgradeKdf).
 * - The vault key is unwrapped with the params and salt checked at prelogin, never with
 *   anything login (or the second step) returns; the wrap's associated data binds them, so
 *   tampering fails.
 * - The master password goes only into the KDF; the server sees only authKey. While a second
 *   factor is pending, only the non-extractable wrapKey is kept, in memory.
 *
 * Errors: KdfParamsRejectedError, ApiError (401/403/429...), NetworkError,
 * UnexpectedResponseError, and VaultUnlockError after a successful login.
 */
export async function signIn(username: string, password: string): Promise<SignInResult | SecondFactorNeeded> {
  const account = await accountRefOf(username);
  const pre = await prelogin({ username });
  const { kdf, keyGeneration, belowFloor } = await checkServerKeySettings(account, pre);
  const keys = await deriveKeys(password, pre.salt, kdf, { legacyFloor: belowFloor });
  const answer = await login({ username, password: keys.authKey });
  const checked = { username, account, kdf, salt: pre.salt, keyGeneration, wrapKey: keys.wrapKey };
  if (needsSecondFactor(answer)) return { secondFactor: new PendingSecondFactor(answer.data.secondFactor, checked) };
  const vault = await openVault(checked, answer.data);
  return { message: answer.message, vault: belowFloor ? await upgradeKdf(vault, keys, password) : vault };
}

/**
 * An account below today's KDF floor, just opened in a browser that knew it: re-wrap the vault
 * key under the defaults with the same password, so the weak verifier leaves the server with
 * no action from the person. Best effort: if it fails the vault stays open and the next
 * sign-in in this browser tries again.
 */
async function upgradeKdf(vault: UnlockedVault, keys: AccountKeys, password: string): Promise<UnlockedVault> {
  try {
    const { material } = await rewrapVaultKey(vault.account, vault, keys, password);
    return { ...vault, ...material };
  } catch {
    return vault;
  }
}
