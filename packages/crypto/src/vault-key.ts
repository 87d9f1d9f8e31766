import { aesGcmDecrypt, aesGcmEncrypt, GCM_IV_BYTES } from './aes-gcm';
import { formatCiphertext, parseCiphertext } from './ciphertext-format';
import { asBufferSource, toBase64Url, utf8Encode } from './encoding';
import { AuthenticationFailedError, CiphertextFormatError, VaultKeyRejectedError } from './errors';
import { decodeSalt } from './kdf';
import { checkKdfParams, type KdfParams } from './kdf-params';
import { randomBytes } from './random';

export const VAULT_KEY_BYTES = 32;

/** 32 random bytes from the platform CSPRNG: the key every entry field is encrypted under. */
export function generateVaultKeyBytes(): Uint8Array {
  return randomBytes(VAULT_KEY_BYTES);
}

/**
 * The associated data of the protected vault key, e.g.
 * `lockit/v1/vault-key|argon2id|m=65536|t=3|p=4|salt=<b64url>`. Params are checked and the
 * salt re-encoded first, so the text is canonical: one (params, salt) has one AAD. Changing
 * this string makes every existing protectedKey unreadable.
 */
export function vaultKeyAad(params: KdfParams, salt: string): string {
  const p = checkKdfParams(params);
  const canonicalSalt = toBase64Url(decodeSalt(salt));
  return `lockit/v1/vault-key|${p.algorithm}|m=${p.memoryKiB}|t=${p.iterations}|p=${p.parallelism}|salt=${canonicalSalt}`;
}

/**
 * protectedKey = AES-256-GCM(wrapKey, vaultKeyBytes), fresh IV, AAD = vaultKeyAad(params, salt).
 * Binding params and salt means a server that swaps them cannot get the same vault key
 * accepted under other settings. Throws KdfParamsRejectedError for params outside policy.
 */
export async function wrapVaultKey(
  vaultKeyBytes: Uint8Array,
  wrapKey: CryptoKey,
  params: KdfParams,
  salt: string,
): Promise<string> {
  checkVaultKeyLength(vaultKeyBytes);
  const aad = utf8Encode(vaultKeyAad(params, salt));
  const iv = randomBytes(GCM_IV_BYTES);
  return formatCiphertext(iv, await aesGcmEncrypt(wrapKey, iv, vaultKeyBytes, aad));
}

/**
 * Inverse of wrapVaultKey. Throws VaultKeyRejectedError (reason 'authentication') when the
 * tag fails: wrong password, or protectedKey, params or salt other than at wrap time; reason
 * 'format' / 'version' when protectedKey is not a v1 ciphertext. Never returns other bytes
 * than were wrapped. KdfParamsRejectedError passes through for params outside policy.
 */
export async function unwrapVaultKey(
  protectedKey: string,
  wrapKey: CryptoKey,
  params: KdfParams,
  salt: string,
): Promise<Uint8Array> {
  const aad = utf8Encode(vaultKeyAad(params, salt));
  let parsed;
  try {
    parsed = parseCiphertext(protectedKey);
  } catch (error) {
    if (error instanceof CiphertextFormatError) {
      throw new VaultKeyRejectedError(
        error.reason,
        'The server sent a vault key Lockit cannot read, so your vault stays locked.',
      );
    }
    throw error;
  }
  let bytes: Uint8Array;
  try {
    bytes = await aesGcmDecrypt(wrapKey, parsed.iv, parsed.data, aad);
  } catch (error) {
    if (error instanceof AuthenticationFailedError) throw rejected();
    throw error;
  }
  // Only possible if something other than wrapVaultKey made it; refuse rather than guess.
  if (bytes.length !== VAULT_KEY_BYTES) {
    bytes.fill(0);
    throw rejected();
  }
  return bytes;
}

/**
 * Imports vault key bytes as a NON-extractable AES-256-GCM key (encrypt/decrypt only), so
 * script running later in the page cannot read the key back out of the CryptoKey.
 */
export async function importVaultKey(vaultKeyBytes: Uint8Array): Promise<CryptoKey> {
  checkVaultKeyLength(vaultKeyBytes);
  return globalThis.crypto.subtle.importKey('raw', asBufferSource(vaultKeyBytes), { name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
}

function checkVaultKeyLength(bytes: Uint8Array): void {
  if (!(bytes instanceof Uint8Array) || bytes.length !== VAULT_KEY_BYTES) {
    throw new RangeError(`The vault key must be ${VAULT_KEY_BYTES} bytes.`);
  }
}

function rejected(): VaultKeyRejectedError {
  return new VaultKeyRejectedError(
    'authentication',
    'Lockit could not unlock your vault: the master password is wrong, or the vault key or its settings were changed on the server.',
  );
}
