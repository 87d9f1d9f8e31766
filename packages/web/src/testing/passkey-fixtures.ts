import { passkeyPrfInput, toBase64Url, wrapVaultKeyForPasskey } from '@lockit/crypto';
import { makeAccountKeys } from './crypto-fixtures';
import { installFakeAuthenticator } from './fake-authenticator';

/** The passkey's credential id in the fixtures: 16 bytes of 0x3c. */
export const PASSKEY_ID = toBase64Url(new Uint8Array(16).fill(0x3c));

/**
 * An account with a PRF passkey on this device (the fake authenticator, installed here) and
 * the unlock key the server would hold for it: the vault key wrapped under that passkey's PRF
 * output for `wrappedForUser`/`wrappedFor` (this account and this passkey by default; another
 * id is what a hostile server hands out), at key epoch `keyEpoch` (0 by default: the text of
 * every unlock key made before epochs). `unlock: false`: a passkey registered without PRF.
 */
export async function devicePasskey(
  userId: string,
  options: { wrappedFor?: string; wrappedForUser?: string; unlock?: boolean; password?: string; keyEpoch?: number } = {},
) {
  const account = await makeAccountKeys(options.password ?? 'correct horse battery staple');
  const authenticator = installFakeAuthenticator();
  authenticator.addCredential(PASSKEY_ID, toBase64Url(new TextEncoder().encode(userId)));
  const prf = await authenticator.prfOutput(PASSKEY_ID, await passkeyPrfInput());
  const unlockKey =
    options.unlock === false
      ? null
      : await wrapVaultKeyForPasskey(account.vaultKeyBytes, prf, {
          userId: options.wrappedForUser ?? userId,
          credentialId: options.wrappedFor ?? PASSKEY_ID,
          keyEpoch: options.keyEpoch,
        });
  return { account, credentialId: PASSKEY_ID, unlockKey };
}
