import { keyMaterialResponseSchema } from '@lockit/contract';
import { randomBytes, toBase64Url } from '@lockit/crypto';
import type { AccountRef } from '../device-memory/account-ref';
import {
  openWithPasskeyKeyMaterial,
  PasskeyNoPrfError,
  PasskeyUnlockError,
  userHandleOf,
  type PasskeyCeremony,
} from '../keys/passkey-keys';
import { OfflineCopyDamagedError, readOfflineCopy, type OfflineCopy } from './offline-copy';
import type { OfflinePlatform } from './offline-unlock';
import { readPasskeyUnlocks } from './passkey-unlock-store';

/** No passkey has opened this vault online on this device, so none can open its copy. */
export class NoOfflinePasskeyError extends Error {
  override readonly name = 'NoOfflinePasskeyError';
  constructor() {
    super(
      'No passkey has unlocked your vault on this device while your server answered, so none can open the offline copy. Enter your master password.',
    );
  }
}

/**
 * Unlock this device's offline copy with a passkey, with no server: the passkey's unlock key as
 * the server answered it at an earlier online unlock here, opened with the PRF output of a
 * ceremony whose challenge is local and random (the assertion goes nowhere: only the
 * authenticator's PRF secret opens the key, the signature proves nothing to anyone here).
 *
 * Security invariants: those of openWithPasskeyKeyMaterial on the copy's key material, which
 * passes every check a served one does (account bound at sign-in, key generation and epoch not
 * below what this device saw); the unwrap binds the account id, the credential id the
 * AUTHENTICATOR answered and the key epoch, so an unlock key of a key a rotation replaced fails.
 * The PRF output is wiped on every path.
 *
 * Errors: UnknownSessionAccountError, NoOfflineCopyError, OfflineCopyDamagedError,
 * NoOfflinePasskeyError, the ceremony's own, PasskeyNoPrfError, PasskeyUnlockError,
 * KdfParamsRejectedError.
 */
export async function unlockOfflineCopyWithPasskey<V>(
  platform: OfflinePlatform<V>,
  ceremony: PasskeyCeremony,
): Promise<{ vault: V; copy: OfflineCopy }> {
  const account: AccountRef = await platform.memory.requireSessionAccount();
  const copy = await readOfflineCopy(platform.copies, account);
  const material = keyMaterialResponseSchema.shape.data.safeParse(copy.keyMaterial);
  if (!material.success) throw new OfflineCopyDamagedError();
  const unlocks = await readPasskeyUnlocks(platform.copies, account);
  if (unlocks.length === 0) throw new NoOfflinePasskeyError();
  const rpId = unlocks[0]?.rpId;
  const assertion = await ceremony({
    challenge: toBase64Url(randomBytes(32)),
    allowCredentials: unlocks.map((unlock) => ({ id: unlock.credentialId, type: 'public-key' })),
    userVerification: 'required',
    timeout: 120_000,
    ...(rpId ? { rpId } : {}),
  });
  try {
    if (!assertion.prfOutput) throw new PasskeyNoPrfError();
    const unlock = unlocks.find((kept) => kept.credentialId === assertion.credentialId);
    if (!unlock) throw new PasskeyUnlockError();
    const vault = await openWithPasskeyKeyMaterial(platform, {
      account,
      username: copy.username,
      unlockKey: unlock.unlockKey,
      prfOutput: assertion.prfOutput,
      userId: userHandleOf(assertion.response) ?? unlock.userId,
      credentialId: assertion.credentialId,
      material: material.data,
    });
    return { vault, copy };
  } finally {
    assertion.prfOutput?.fill(0);
  }
}
