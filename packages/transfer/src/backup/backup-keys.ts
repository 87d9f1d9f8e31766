import { deriveMasterKey, hkdfSha256, toBase64Url, type KdfParams } from '@lockit/crypto';
import { BACKUP_KEY_CHECK_BYTES } from './backup-envelope';

/**
 * Argon2id of the backup password (UTF-8 of its NFKC form), 32 bytes. Injectable so the web
 * app can run it in its worker; the default runs @lockit/crypto's deriveMasterKey here.
 * The salt is passed as base64url, as deriveMasterKey takes it.
 */
export type DeriveBackupSecret = (password: string, saltBase64Url: string, params: KdfParams) => Promise<Uint8Array>;

// Backups keep the old floor (kdfPolicyProblem checked it already, see backup-envelope.ts).
export const deriveOnThisThread: DeriveBackupSecret = (password, salt, params) =>
  deriveMasterKey(password, salt, params, { legacyFloor: true });

/** HKDF labels per format version: a version 2 file's key is not a version 1 file's. */
const INFO = {
  1: { key: 'lockit-backup v1 encryption key', check: 'lockit-backup v1 key check' },
  2: { key: 'lockit-backup v2 encryption key', check: 'lockit-backup v2 key check' },
} as const;
export type BackupKeyVersion = keyof typeof INFO;

export interface BackupKeys {
  key: CryptoKey;
  keyCheck: Uint8Array;
}

/** The AES-256-GCM key and the key check of one format version, from the Argon2id output. */
async function keysOf(secret: Uint8Array, version: BackupKeyVersion): Promise<BackupKeys> {
  const encode = (text: string) => new TextEncoder().encode(text);
  const [raw, keyCheck] = await Promise.all([
    hkdfSha256(secret, new Uint8Array(0), encode(INFO[version].key), 32),
    hkdfSha256(secret, new Uint8Array(0), encode(INFO[version].check), BACKUP_KEY_CHECK_BYTES),
  ]);
  try {
    const key = await globalThis.crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, 'AES-GCM', false, [
      'encrypt',
      'decrypt',
    ]);
    return { key, keyCheck };
  } finally {
    raw.fill(0);
  }
}

/**
 * From the Argon2id output: the AES-256-GCM key and the key check of each version asked, by
 * HKDF-SHA-256 (empty salt) with distinct labels, so the check stored in the file says nothing
 * of the key. Security invariant: the Argon2id output is wiped before this returns.
 */
export async function deriveBackupKeySets<V extends BackupKeyVersion>(
  password: string,
  salt: Uint8Array,
  params: KdfParams,
  derive: DeriveBackupSecret,
  versions: readonly V[],
): Promise<Record<V, BackupKeys>> {
  const secret = await derive(password, toBase64Url(salt), params);
  try {
    const sets = await Promise.all(versions.map((version) => keysOf(secret, version)));
    return Object.fromEntries(versions.map((version, i) => [version, sets[i]!])) as Record<V, BackupKeys>;
  } finally {
    secret.fill(0);
  }
}

/** The version 1 keys (see deriveBackupKeySets). */
export async function deriveBackupKeys(
  password: string,
  salt: Uint8Array,
  params: KdfParams,
  derive: DeriveBackupSecret,
): Promise<BackupKeys> {
  return (await deriveBackupKeySets(password, salt, params, derive, [1]))[1];
}
