import {
  SecurityKeyError,
  type PendingSecondFactor as CorePending,
  type SecondFactorSignedIn,
  type SecurityKeyCeremony,
} from '@lockit/client-core';
import {
  browserSupportsWebAuthn,
  startAuthentication,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { UnlockedVault } from '@/lib/keyring';

export { SecondFactorExpiredError, SecondFactorInputError, SecurityKeyError } from '@lockit/client-core';

/** A sign-in waiting for its second factor (the client core's), opening this browser's vault. */
export type PendingSecondFactor = CorePending<UnlockedVault>;
export type SecondFactorSignInResult = SecondFactorSignedIn<UnlockedVault>;

export const NO_SECURITY_KEY_SUPPORT = 'This browser cannot use security keys. Use another way to sign in.';

/** The browser's WebAuthn ceremony for a security key, as the client core asks for it. */
export const securityKeyCeremony: SecurityKeyCeremony = async (options) => {
  if (!browserSupportsWebAuthn()) throw new SecurityKeyError(NO_SECURITY_KEY_SUPPORT);
  const optionsJSON = options as unknown as PublicKeyCredentialRequestOptionsJSON;
  return { ...(await startAuthentication({ optionsJSON })) };
};
