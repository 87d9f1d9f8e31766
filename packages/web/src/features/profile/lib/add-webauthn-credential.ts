import {
  fromBase64Url,
  passkeyPrfInputBase64Url,
  unwrapVaultKey,
  VaultKeyRejectedError,
  wrapVaultKeyForPasskey,
} from '@lockit/crypto';
import type { WebauthnCredential } from '@lockit/contract';
import { deriveKeys } from '@/lib/derive-keys';
import { deviceMemory } from '@/lib/device-memory';
import { createCredential, evaluatePrf, PasskeyCeremonyError } from '@/lib/passkey/prf-ceremonies';
import { getRegistrationOptions, putUnlockKey, registerCredential } from '../api/webauthn-credentials';
import { CurrentPasswordIncorrectError, type AccountKeyMaterial } from './change-master-password';

/**
 * 'unlocks': its unlock key is stored; 'no-prf': the authenticator has no PRF; 'cancelled': the
 * prompt that reads the PRF was cancelled; 'second-step': a security key.
 */
export type UnlockOutcome = 'unlocks' | 'no-prf' | 'cancelled' | 'second-step';

export interface CredentialAdded {
  credential: WebauthnCredential;
  unlock: UnlockOutcome;
  /** Made when this was the account's first factor: shown once. */
  recoveryCodes: string[] | undefined;
}

export interface AddCredentialInput {
  material: AccountKeyMaterial;
  masterPassword: string;
  name: string;
  /** A passkey (signs in and unlocks); else a security key (second step only). */
  passkey: boolean;
}

/**
 * Registers a passkey or security key, and for a passkey whose authenticator has PRF stores
 * the vault key wrapped under its PRF output.
 *
 * master password -> keys (as change password derives them) -> unwrap the vault key, which
 * proves the password here before its authKey is sent -> register options -> create() with
 * PRF -> register -> PRF output (from create, else from an immediate get() of that credential)
 * -> wrap the vault key bound to the account id, the credential id the authenticator answered
 * and the key epoch the password's wrap proved -> PUT unlock key.
 *
 * Security invariants: the master password goes only into the KDF; the vault key bytes and the
 * PRF output exist only inside this call and are wiped at its end; the PRF output is never sent.
 */
export async function addWebauthnCredential(input: AddCredentialInput): Promise<CredentialAdded> {
  const { material } = input;
  const keys = await deriveKeys(input.masterPassword, material.salt, material.kdf);
  let vaultKeyBytes: Uint8Array;
  try {
    vaultKeyBytes = await unwrapVaultKey(
      material.protectedKey,
      keys.wrapKey,
      material.kdf,
      material.salt,
      material.keyGeneration,
      material.keyEpoch,
    );
  } catch (error) {
    if (error instanceof VaultKeyRejectedError) throw new CurrentPasswordIncorrectError();
    throw error;
  }
  let prfOutput: Uint8Array | undefined;
  try {
    const challenge = await getRegistrationOptions({ password: keys.authKey, passkey: input.passkey });
    const userId = userIdOf(challenge.options);
    if (userId === undefined) throw new Error('The server sent registration options without an account id.');
    // A sign-in with this passkey later finds this browser's memory of the account by its user handle.
    await deviceMemory.rememberUserHandle(userId, material.account);
    const rpId = rpIdOf(challenge.options);
    const created = await createCredential(challenge.options, input.passkey);
    prfOutput = created.prfOutput;
    const registered = await registerCredential({
      challengeId: challenge.challengeId,
      name: input.name,
      response: created.response,
    });
    const added = { credential: registered.credential, recoveryCodes: registered.recoveryCodes };
    if (!input.passkey) return { ...added, unlock: 'second-step' };

    if (!prfOutput && created.prfEnabled !== false) {
      try {
        prfOutput = await evaluatePrf(created.credentialId, rpId);
      } catch (error) {
        if (error instanceof PasskeyCeremonyError) return { ...added, unlock: 'cancelled' };
        throw error;
      }
    }
    if (!prfOutput) return { ...added, unlock: 'no-prf' };

    // Bound to the key epoch the password's wrap just proved; the server keeps it only while that
    // is still the account's key (a rotation committed meanwhile: 409, nothing stored).
    const keyEpoch = material.keyEpoch ?? 0;
    const unlockKey = await wrapVaultKeyForPasskey(vaultKeyBytes, prfOutput, {
      userId,
      credentialId: created.credentialId,
      keyEpoch,
    });
    await putUnlockKey(registered.credential.id, { unlockKey, unlockSalt: await passkeyPrfInputBase64Url(), keyEpoch });
    return {
      credential: { ...registered.credential, canUnlock: true },
      recoveryCodes: registered.recoveryCodes,
      unlock: 'unlocks',
    };
  } finally {
    vaultKeyBytes.fill(0);
    prfOutput?.fill(0);
  }
}

/** The account id: the server makes the WebAuthn user handle from its UTF-8 bytes. */
function userIdOf(options: Record<string, unknown>): string | undefined {
  const handle = (options.user as { id?: unknown } | undefined)?.id;
  if (typeof handle !== 'string') return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(fromBase64Url(handle)) || undefined;
  } catch {
    return undefined;
  }
}

function rpIdOf(options: Record<string, unknown>): string | undefined {
  const id = (options.rp as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : undefined;
}
