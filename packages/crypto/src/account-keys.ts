import { asBufferSource, toBase64Url, utf8Encode } from './encoding';
import { hkdfSha256 } from './hkdf';
import { deriveMasterKey, MASTER_KEY_BYTES } from './kdf';
import type { KdfCheckOptions, KdfParams } from './kdf-params';

export interface AccountKeys {
  /** 32 bytes, base64url. Sent to the server in place of the password; reveals nothing of wrapKey. */
  authKey: string;
  /** AES-256-GCM, non-extractable: it wraps the vault key and never leaves this device. */
  wrapKey: CryptoKey;
}

/** Distinct HKDF info strings make authKey and wrapKey independent: knowing one gives nothing of the other. */
export const AUTH_KEY_INFO = 'lockit/v1/auth-key';
export const WRAP_KEY_INFO = 'lockit/v1/wrap-key';
const KEY_BYTES = 32;

/**
 * HKDF-SHA-256 split of the master key: salt empty (the master key is already uniform),
 * info AUTH_KEY_INFO / WRAP_KEY_INFO, 32 bytes each. The wrap key's raw bytes are wiped
 * once imported, so only the non-extractable CryptoKey remains.
 */
export async function deriveAccountKeys(masterKey: Uint8Array): Promise<AccountKeys> {
  if (!(masterKey instanceof Uint8Array) || masterKey.length !== MASTER_KEY_BYTES) {
    throw new RangeError(`The master key must be ${MASTER_KEY_BYTES} bytes.`);
  }
  const empty = new Uint8Array(0);
  const [authBytes, wrapBytes] = await Promise.all([
    hkdfSha256(masterKey, empty, utf8Encode(AUTH_KEY_INFO), KEY_BYTES),
    hkdfSha256(masterKey, empty, utf8Encode(WRAP_KEY_INFO), KEY_BYTES),
  ]);
  try {
    const wrapKey = await globalThis.crypto.subtle.importKey(
      'raw',
      asBufferSource(wrapBytes),
      { name: 'AES-GCM', length: 256 },
      false,
      ['encrypt', 'decrypt'],
    );
    return { authKey: toBase64Url(authBytes), wrapKey };
  } finally {
    authBytes.fill(0);
    wrapBytes.fill(0);
  }
}

/**
 * deriveMasterKey + deriveAccountKeys. The master key bytes are wiped afterwards (best
 * effort: JS cannot promise that no copy remains, but none is kept on purpose).
 */
export async function deriveKeysFromPassword(
  password: string,
  salt: string,
  params: KdfParams,
  options: KdfCheckOptions = {},
): Promise<AccountKeys> {
  const masterKey = await deriveMasterKey(password, salt, params, options);
  try {
    return await deriveAccountKeys(masterKey);
  } finally {
    masterKey.fill(0);
  }
}
