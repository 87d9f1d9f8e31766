import { argon2id } from 'hash-wasm';
import { fromBase64Url, utf8Encode } from './encoding';
import { KdfParamsRejectedError } from './errors';
import { checkKdfParams, type KdfCheckOptions, type KdfParams } from './kdf-params';
import { SALT_BYTES } from './random';

export const MASTER_KEY_BYTES = 32;

/**
 * Raw Argon2id (version 1.3) with no policy at all: no limits, any salt length. Exists so the
 * published reference vectors can be checked. Deliberately NOT exported from the package
 * index: app code must go through deriveMasterKey, which enforces KDF_LIMITS.
 */
export async function argon2idRaw(
  password: Uint8Array,
  salt: Uint8Array,
  params: Pick<KdfParams, 'memoryKiB' | 'iterations' | 'parallelism'>,
  hashLength = MASTER_KEY_BYTES,
): Promise<Uint8Array> {
  return argon2id({
    password,
    salt,
    iterations: params.iterations,
    parallelism: params.parallelism,
    memorySize: params.memoryKiB,
    hashLength,
    outputType: 'binary',
  });
}

/**
 * masterKey = Argon2id(UTF-8(NFKC(password)), salt, params), 32 bytes.
 *
 * Security invariants: params pass checkKdfParams before any work is done (a hostile server
 * cannot downgrade the KDF or exhaust the device); the salt must decode to exactly 16 bytes;
 * NFKC makes one password typed with composed or decomposed characters give one key. The
 * caller owns the returned bytes and should wipe them once used. `options.legacyFloor` lowers
 * the floor to LEGACY_KDF_FLOOR, for an account the caller already knows used such params.
 */
export async function deriveMasterKey(
  password: string,
  salt: string,
  params: KdfParams,
  options: KdfCheckOptions = {},
): Promise<Uint8Array> {
  const checked = checkKdfParams(params, options);
  const saltBytes = decodeSalt(salt);
  if (typeof password !== 'string') throw new TypeError('The password must be text.');
  const passwordBytes = utf8Encode(password.normalize('NFKC'));
  try {
    return await argon2idRaw(passwordBytes, saltBytes, checked);
  } finally {
    passwordBytes.fill(0);
  }
}

/** Decodes a KDF salt; anything but 16 bytes of base64url is refused like bad params. */
export function decodeSalt(salt: unknown): Uint8Array {
  let bytes: Uint8Array | undefined;
  try {
    bytes = typeof salt === 'string' ? fromBase64Url(salt) : undefined;
  } catch {
    bytes = undefined;
  }
  if (bytes?.length !== SALT_BYTES) {
    throw new KdfParamsRejectedError(
      'salt',
      'The server sent a key-derivation salt Lockit cannot use (it must be 16 bytes of base64url). Sign-in was stopped to protect your password.',
    );
  }
  return bytes;
}
