import {
  signInWithPasskey as signInWithCore,
  type CannotUnlockReason,
  type PasskeySignInResult as CoreResult,
} from '@lockit/client-core';
import { keyPlatform } from '@/lib/key-platform';
import type { UnlockedVault } from '@/lib/keyring';
import { getAssertion } from './prf-ceremonies';

export { PasskeyUnlockError, type CannotUnlockReason } from '@lockit/client-core';

export type PasskeySignInResult = CoreResult<UnlockedVault>;

/**
 * Passkey sign-in and unlock: the client core's (see its invariants), with the browser's
 * WebAuthn ceremony asking for PRF, and the vault opened with a reload seal.
 *
 * Errors: PasskeyCeremonyError, ApiError, NetworkError, UnexpectedResponseError, and after the
 * session opened PasskeyUnlockError or KdfParamsRejectedError (the caller ends that session).
 */
export function signInWithPasskey(): Promise<PasskeySignInResult> {
  return signInWithCore(keyPlatform, getAssertion);
}

/** What the Unlock screen says when a passkey signed in but could not open the vault. */
export const CANNOT_UNLOCK_TEXT: Record<CannotUnlockReason, string> = {
  'no-unlock-key': 'This passkey signs you in but cannot unlock your vault: enter your master password.',
  'no-prf': 'Your authenticator did not give this passkey’s unlock secret: enter your master password.',
};

/** The router state a passkey sign-in that could not unlock hands to the vault's Unlock screen. */
export interface PasskeySignedInState {
  passkeyCannotUnlock: CannotUnlockReason;
}

/** The reason in a location's state, if a passkey sign-in put one there. */
export function cannotUnlockReasonOf(state: unknown): CannotUnlockReason | undefined {
  const reason = (state as Partial<PasskeySignedInState> | null | undefined)?.passkeyCannotUnlock;
  return reason === 'no-unlock-key' || reason === 'no-prf' ? reason : undefined;
}
