import type { KeyPlatform } from './client-keys';
import { openWithPasskeyKey, userHandleOf, type PasskeyCeremony } from './passkey-keys';

/** The authenticator gave no PRF output for the passkey: nothing was sent, nothing unlocked. */
export class PasskeyNoPrfError extends Error {
  override readonly name = 'PasskeyNoPrfError';
  constructor(message = 'Your authenticator did not give this passkey’s unlock secret: enter your master password.') {
    super(message);
  }
}

/**
 * Unlock with a passkey, for a live session whose vault this client does not hold: unlock
 * options (the session's passkeys that hold an unlock key) -> the ceremony with PRF -> the server
 * checks the assertion and answers that credential's unlock key -> openWithPasskeyKey.
 *
 * Security invariants: those of openWithPasskeyKey, for the account this device's sign-in bound
 * (UnknownSessionAccountError without one). The account id bound is the one the AUTHENTICATOR's
 * user handle names; the server's only when the authenticator gives none (the binding to this
 * credential still holds, and only this device ever made a wrap for it). The PRF output is wiped
 * on every path.
 *
 * Errors: the ceremony's own, PasskeyNoPrfError, PasskeyUnlockError, KdfParamsRejectedError, and
 * the API client's errors.
 */
export async function unlockWithPasskey<V>(
  platform: Pick<KeyPlatform<V>, 'api' | 'memory' | 'device' | 'open'>,
  username: string,
  ceremony: PasskeyCeremony,
): Promise<V> {
  const account = await platform.memory.requireSessionAccount();
  const { data: challenge } = await platform.api.call('passkey-unlock-options', {});
  const assertion = await ceremony(challenge.options);
  try {
    if (!assertion.prfOutput) throw new PasskeyNoPrfError();
    const { data: answer } = await platform.api.call('passkey-unlock', {
      body: { challengeId: challenge.challengeId, response: assertion.response },
    });
    return await openWithPasskeyKey(platform, {
      account,
      username,
      unlockKey: answer.unlockKey,
      prfOutput: assertion.prfOutput,
      userId: userHandleOf(assertion.response) ?? answer.userId,
      credentialId: assertion.credentialId,
    });
  } finally {
    assertion.prfOutput?.fill(0);
  }
}
