import { fromBase64Url, unwrapVaultKeyWithPasskey } from '@lockit/crypto';
import type { AccountRef } from '../device-memory/account-ref';
import type { KeyPlatform, UncheckedKeyMaterial } from './client-keys';
import { checkServerKeyEpoch, checkServerKeySettings } from './key-settings-policy';

/** What the platform's WebAuthn ceremony answers for a passkey sign-in or unlock. */
export interface PasskeyAssertion {
  /** The JSON for the server, without any PRF output. */
  response: Record<string, unknown>;
  /** The credential id the authenticator itself answered (base64url of rawId). */
  credentialId: string;
  /** 32 bytes, when the authenticator evaluated the PRF; wiped by the core after use. */
  prfOutput: Uint8Array | undefined;
}

/**
 * The platform's navigator.credentials.get() with the PRF extension: the server's request
 * options (JSON) in, the authenticator's answer out. It throws its own error when cancelled.
 */
export type PasskeyCeremony = (options: Record<string, unknown>) => Promise<PasskeyAssertion>;

/** The authenticator gave no PRF output for the passkey: nothing was sent, nothing unlocked. */
export class PasskeyNoPrfError extends Error {
  override readonly name = 'PasskeyNoPrfError';
  constructor(message = 'Your authenticator did not give this passkey’s unlock secret: enter your master password.') {
    super(message);
  }
}

/**
 * The passkey's unlock key did not verify: nothing is unlocked. At passkey sign-in the session it
 * just opened is ended too; at Unlock the session stays and the password still works.
 */
export class PasskeyUnlockError extends Error {
  override readonly name = 'PasskeyUnlockError';
  constructor(message = "Lockit could not unlock your vault: the server's key data failed verification.") {
    super(message);
  }
}

/** The account id the authenticator's user handle names (the server makes it from the id's UTF-8). */
export function userHandleOf(response: Record<string, unknown>): string | undefined {
  const handle = (response['response'] as { userHandle?: unknown } | undefined)?.userHandle;
  if (typeof handle !== 'string' || handle === '') return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(fromBase64Url(handle)) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Opens the vault with a passkey's unlock key, for passkey sign-in and Unlock with a passkey
 * alike: the account's key material, checked as every unlock path checks it, then the unwrap
 * under the PRF output.
 *
 * Security invariants:
 * - The unwrap binds the account id (`userId`), the credential id the AUTHENTICATOR answered and
 *   the key epoch: another account's or another passkey's unlock key, or one of a key a rotation
 *   replaced, fails (PasskeyUnlockError) or is refused first (KeyEpochRolledBackError).
 * - The key material must pass checkServerKeySettings and checkServerKeyEpoch against `account`
 *   (this device's ref, never the server's name) before anything is unwrapped.
 * - A successful unwrap raises the remembered epoch. The PRF output is the caller's to wipe.
 */
export async function openWithPasskeyKey<V>(
  platform: Pick<KeyPlatform<V>, 'api' | 'memory' | 'device' | 'open'>,
  opening: PasskeyOpening,
): Promise<V> {
  const { data: material } = await platform.api.call('key-material', {});
  return openWithPasskeyKeyMaterial(platform, { ...opening, material });
}

/** What opening a vault with a passkey's unlock key takes, besides the key material. */
export interface PasskeyOpening {
  account: AccountRef;
  username: string;
  unlockKey: string;
  prfOutput: Uint8Array;
  userId: string;
  credentialId: string;
}

/**
 * openWithPasskeyKey with key material already at hand: the server's answer, or an offline
 * copy's (which passes exactly the same checks). Same invariants.
 */
export async function openWithPasskeyKeyMaterial<V>(
  platform: Pick<KeyPlatform<V>, 'memory' | 'device' | 'open'>,
  {
    account,
    username,
    unlockKey,
    prfOutput,
    userId,
    credentialId,
    material,
  }: PasskeyOpening & { material: UncheckedKeyMaterial },
): Promise<V> {
  const { kdf, keyGeneration } = await checkServerKeySettings(platform.memory, account, material, platform.device());
  const keyEpoch = await checkServerKeyEpoch(platform.memory, account, material);
  let vault: V;
  try {
    const bytes = await unwrapVaultKeyWithPasskey(unlockKey, prfOutput, { userId, credentialId, keyEpoch });
    vault = await platform.open(bytes, {
      username,
      account,
      kdf,
      salt: material.salt,
      protectedKey: material.protectedKey,
      keyGeneration,
      keyEpoch,
    });
  } catch {
    throw new PasskeyUnlockError();
  }
  await platform.memory.rememberKeyEpoch(account, keyEpoch);
  return vault;
}
