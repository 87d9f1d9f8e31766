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

const ENCRYPTION_INFO = new TextEncoder().encode('lockit-backup v1 encryption key');
const KEY_CHECK_INFO = new TextEncoder().encode('lockit-backup v1 key check');

export interface BackupKeys {
  key: CryptoKey;
  keyCheck: Uint8Array;
}

/**
 * From the Argon2id output: the AES-256-GCM key and the key check, by HKDF-SHA-256 (empty
 * salt) with distinct labels, so the check stored in the file says nothing of the key.
 * Security invariant: the Argon2id output is wiped before this returns.
 */
export async function deriveBackupKeys(
  password: string,
  salt: Uint8Array,
  params: KdfParams,
  derive: DeriveBackupSecret,
): Promise<BackupKeys> {
  const secret = await derive(password, toBase64Url(salt), params);
  try {
    const [raw, keyCheck] = await Promise.all([
      hkdfSha256(secret, new Uint8Array(0), ENCRYPTION_INFO, 32),
      hkdfSha256(secret, new Uint8Array(0), KEY_CHECK_INFO, BACKUP_KEY_CHECK_BYTES),
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
  } finally {
    secret.fill(0);
  }
}
