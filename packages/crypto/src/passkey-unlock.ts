import { aesGcmDecrypt, aesGcmEncrypt, GCM_IV_BYTES } from './aes-gcm';
import { formatCiphertext, parseCiphertext } from './ciphertext-format';
import { asBufferSource, fromBase64Url, toBase64Url, utf8Encode } from './encoding';
import { AuthenticationFailedError, CiphertextFormatError, VaultKeyRejectedError } from './errors';
import { hkdfSha256 } from './hkdf';
import { randomBytes } from './random';
import { epochSuffix, VAULT_KEY_BYTES } from './vault-key';

/**
 * Passkey unlock: a copy of the vault key wrapped under a key that only one passkey's
 * WebAuthn PRF output gives. The server stores that copy (`unlockKey`) and cannot open it.
 *
 * Security invariants:
 * - The PRF output is the only secret input; it never leaves the browser. The unlock key is
 *   HKDF-SHA-256(prfOutput, info PASSKEY_UNLOCK_INFO) imported as a NON-extractable AES-256-GCM key.
 * - The wrap's associated data binds a purpose label, the account id and the WebAuthn credential
 *   id, so a server that hands one account's or one passkey's unlock key to another fails the tag;
 *   and the key epoch of the vault key it holds (vault-key.ts), so a server cannot pass off a wrap
 *   of a key rotated away as one of the current key: it must name the old epoch, which the
 *   browser refuses once it saw a later one.
 * - The PRF input is one fixed value for every Lockit passkey (with discoverable sign-in the
 *   credential is unknown before the assertion); the PRF output is still secret per credential.
 */
export const PASSKEY_UNLOCK_INFO = 'lockit-passkey-unlock-v1';
/** SHA-256 of this label is the PRF input (`prf.eval.first`) of every Lockit passkey. */
export const PASSKEY_PRF_LABEL = 'lockit-passkey-prf-v1';
/** WebAuthn PRF outputs are 32 bytes (HMAC-SHA-256 of the authenticator's hmac-secret). */
export const PRF_OUTPUT_BYTES = 32;

/** Who and which passkey an unlock key belongs to; both go into the associated data. */
export interface PasskeyBinding {
  /** The account's id, as the server names it. */
  userId: string;
  /** The WebAuthn credential id (canonical base64url), as the authenticator answered it. */
  credentialId: string;
  /**
   * The key epoch of the vault key wrapped (0 when absent: every unlock key made before epochs
   * existed holds the key of epoch 0 and keeps its associated data).
   */
  keyEpoch?: number | undefined;
}

/** The PRF input: SHA-256(PASSKEY_PRF_LABEL), 32 bytes. */
export async function passkeyPrfInput(): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', utf8Encode(PASSKEY_PRF_LABEL)));
}

/** The PRF input as base64url: what the app sends as `unlockSalt`. */
export async function passkeyPrfInputBase64Url(): Promise<string> {
  return toBase64Url(await passkeyPrfInput());
}

/**
 * `lockit/v1/passkey-unlock|user=<id, URI-encoded>|credential=<b64url>`, then `|epoch=<n>` for key
 * epoch n >= 1. The user id is URI-encoded so that no id can contain the separator; the credential
 * id must be canonical base64url, so one credential has one text. Changing this string makes every
 * unlock key unreadable.
 */
export function passkeyUnlockAad(binding: PasskeyBinding): string {
  if (typeof binding.userId !== 'string' || binding.userId.length === 0) throw new TypeError('The account id must not be empty.');
  let credential: Uint8Array;
  try {
    credential = fromBase64Url(binding.credentialId);
  } catch {
    throw new TypeError('The credential id must be base64url.');
  }
  if (credential.length === 0) throw new TypeError('The credential id must not be empty.');
  const base = `lockit/v1/passkey-unlock|user=${encodeURIComponent(binding.userId)}|credential=${toBase64Url(credential)}`;
  return base + epochSuffix(binding.keyEpoch ?? 0);
}

/** AES-256-GCM key from a PRF output by HKDF-SHA-256 (empty salt: the output is already uniform). */
async function unlockKeyFrom(prfOutput: Uint8Array): Promise<CryptoKey> {
  if (!(prfOutput instanceof Uint8Array) || prfOutput.length !== PRF_OUTPUT_BYTES) {
    throw new RangeError(`The passkey's PRF output must be ${PRF_OUTPUT_BYTES} bytes.`);
  }
  const bytes = await hkdfSha256(prfOutput, new Uint8Array(0), utf8Encode(PASSKEY_UNLOCK_INFO), 32);
  try {
    return await globalThis.crypto.subtle.importKey('raw', asBufferSource(bytes), { name: 'AES-GCM', length: 256 }, false, [
      'encrypt',
      'decrypt',
    ]);
  } finally {
    bytes.fill(0);
  }
}

/** unlockKey = AES-256-GCM(HKDF(prfOutput), vaultKeyBytes), fresh IV, AAD = passkeyUnlockAad(binding). */
export async function wrapVaultKeyForPasskey(
  vaultKeyBytes: Uint8Array,
  prfOutput: Uint8Array,
  binding: PasskeyBinding,
): Promise<string> {
  if (!(vaultKeyBytes instanceof Uint8Array) || vaultKeyBytes.length !== VAULT_KEY_BYTES) {
    throw new RangeError(`The vault key must be ${VAULT_KEY_BYTES} bytes.`);
  }
  const aad = utf8Encode(passkeyUnlockAad(binding));
  const key = await unlockKeyFrom(prfOutput);
  const iv = randomBytes(GCM_IV_BYTES);
  return formatCiphertext(iv, await aesGcmEncrypt(key, iv, vaultKeyBytes, aad));
}

/**
 * Inverse of wrapVaultKeyForPasskey. Throws VaultKeyRejectedError when the text is not a v1
 * ciphertext ('format' / 'version') or the tag fails ('authentication'): another passkey,
 * another account or credential id, another key epoch, or any changed bit. Never returns other bytes than were wrapped.
 */
export async function unwrapVaultKeyWithPasskey(
  unlockKey: string,
  prfOutput: Uint8Array,
  binding: PasskeyBinding,
): Promise<Uint8Array> {
  const aad = utf8Encode(passkeyUnlockAad(binding));
  let parsed;
  try {
    parsed = parseCiphertext(unlockKey);
  } catch (error) {
    if (error instanceof CiphertextFormatError) throw rejected(error.reason);
    throw error;
  }
  const key = await unlockKeyFrom(prfOutput);
  let bytes: Uint8Array;
  try {
    bytes = await aesGcmDecrypt(key, parsed.iv, parsed.data, aad);
  } catch (error) {
    if (error instanceof AuthenticationFailedError) throw rejected('authentication');
    throw error;
  }
  if (bytes.length !== VAULT_KEY_BYTES) {
    bytes.fill(0);
    throw rejected('authentication');
  }
  return bytes;
}

function rejected(reason: 'format' | 'version' | 'authentication'): VaultKeyRejectedError {
  return new VaultKeyRejectedError(
    reason,
    "Lockit could not unlock your vault with this passkey: the server's key data failed verification.",
  );
}
