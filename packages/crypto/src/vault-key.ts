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

/** The largest key generation accepted: far beyond any real count of password changes. */
export const MAX_KEY_GENERATION = 1_000_000;

/**
 * The associated data of the protected vault key, e.g.
 * `lockit/v1/vault-key|argon2id|m=65536|t=3|p=4|salt=<b64url>` for generation 0 and the same
 * with `|gen=2` appended for generation 2, then `|epoch=1` for key epoch 1. Params are checked
 * (down to the legacy floor: the policy itself is the caller's, before any derivation) and the
 * salt re-encoded first, so the text is canonical: one (params, salt, generation, epoch) has one
 * AAD. Generation 0 and epoch 0 keep the text wraps had before generations and epochs existed,
 * so they keep opening. Changing this string makes every existing protectedKey unreadable.
 */
export function vaultKeyAad(params: KdfParams, salt: string, generation = 0, epoch = 0): string {
  const p = checkKdfParams(params, { legacyFloor: true });
  const canonicalSalt = toBase64Url(decodeSalt(salt));
  const base = `lockit/v1/vault-key|${p.algorithm}|m=${p.memoryKiB}|t=${p.iterations}|p=${p.parallelism}|salt=${canonicalSalt}`;
  const gen = checkKeyGeneration(generation);
  return `${gen === 0 ? base : `${base}|gen=${gen}`}${epochSuffix(epoch)}`;
}

/** The largest key epoch accepted: one per key rotation, far beyond any real count. */
export const MAX_KEY_EPOCH = 1_000_000;

/**
 * A key epoch from an untrusted answer: which vault key this is, counted by key rotations (0
 * for the key made at sign-up, + 1 at every rotation; a password change keeps it, since the key
 * stays). A whole number from 0 to MAX_KEY_EPOCH; anything else throws
 * VaultKeyRejectedError('format') with a readable message.
 */
export function checkKeyEpoch(epoch: unknown): number {
  if (typeof epoch !== 'number' || !Number.isSafeInteger(epoch) || epoch < 0 || epoch > MAX_KEY_EPOCH) {
    throw new VaultKeyRejectedError('format', 'The server sent a key epoch Lockit cannot read, so your vault stays locked.');
  }
  return epoch;
}

/**
 * `|epoch=<n>` for epoch n >= 1, nothing for epoch 0: every wrap made before epochs existed is
 * of epoch 0 and keeps its text. Shared by every wrap of the vault key (the master password's,
 * a passkey's), so a wrap names the key it holds the same way wherever it is stored.
 */
export function epochSuffix(epoch: unknown): string {
  const checked = checkKeyEpoch(epoch);
  return checked === 0 ? '' : `|epoch=${checked}`;
}

/**
 * A key generation from an untrusted answer: a whole number from 0 to MAX_KEY_GENERATION;
 * anything else throws VaultKeyRejectedError('format') with a readable message.
 */
export function checkKeyGeneration(generation: unknown): number {
  if (typeof generation !== 'number' || !Number.isSafeInteger(generation) || generation < 0 || generation > MAX_KEY_GENERATION) {
    throw new VaultKeyRejectedError('format', 'The server sent a key generation Lockit cannot read, so your vault stays locked.');
  }
  return generation;
}

/**
 * protectedKey = AES-256-GCM(wrapKey, vaultKeyBytes), fresh IV, AAD = vaultKeyAad(params,
 * salt, generation, epoch). Binding params and salt means a server that swaps them cannot get the
 * same vault key accepted under other settings; binding the generation means a server cannot
 * present an old wrap as a newer generation; binding the epoch means the browser learns, from
 * the wrap alone, which vault key (by rotation) it holds. Throws KdfParamsRejectedError for
 * params outside policy.
 */
export async function wrapVaultKey(
  vaultKeyBytes: Uint8Array,
  wrapKey: CryptoKey,
  params: KdfParams,
  salt: string,
  generation = 0,
  epoch = 0,
): Promise<string> {
  checkVaultKeyLength(vaultKeyBytes);
  const aad = utf8Encode(vaultKeyAad(params, salt, generation, epoch));
  const iv = randomBytes(GCM_IV_BYTES);
  return formatCiphertext(iv, await aesGcmEncrypt(wrapKey, iv, vaultKeyBytes, aad));
}

/**
 * Inverse of wrapVaultKey. Throws VaultKeyRejectedError (reason 'authentication') when the
 * tag fails: wrong password, or protectedKey, params or salt other than at wrap time; reason
 * 'format' / 'version' when protectedKey is not a v1 ciphertext, or the generation is not a
 * whole number in range; 'authentication' too when the generation or epoch is other than at
 * wrap time.
 * Never returns other bytes than were wrapped. KdfParamsRejectedError passes through for
 * params outside policy.
 */
export async function unwrapVaultKey(
  protectedKey: string,
  wrapKey: CryptoKey,
  params: KdfParams,
  salt: string,
  generation = 0,
  epoch = 0,
): Promise<Uint8Array> {
  const aad = utf8Encode(vaultKeyAad(params, salt, generation, epoch));
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
