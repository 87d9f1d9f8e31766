import { signIn as signInWithCore } from '@lockit/client-core';
import { keyPlatform } from '@/lib/key-platform';
import type { UnlockedVault } from '@/lib/keyring';
import type { PendingSecondFactor } from './second-factor-sign-in';

export { VaultUnlockError } from '@lockit/client-core';

export interface SignInResult {
  message: string;
  vault: UnlockedVault;
}

/** The password was right; the account asks for a second factor before it opens a session. */
export interface SecondFactorNeeded {
  secondFactor: PendingSecondFactor;
}

/**
 * The client core's sign-in (see its invariants) with this browser's platform: the master
 * password goes only into the KDF in a worker, and the vault opens with a reload seal.
 *
 * Errors: KdfParamsRejectedError, ApiError (401/403/429...), NetworkError,
 * UnexpectedResponseError, KeyDerivationError, and VaultUnlockError after a successful login.
 */
export async function signIn(username: string, password: string): Promise<SignInResult | SecondFactorNeeded> {
  const result = await signInWithCore(keyPlatform, username, password);
  if (result.kind === 'second-factor') return { secondFactor: result.pending };
  return { message: result.message, vault: result.vault };
}
