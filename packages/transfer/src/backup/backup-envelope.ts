import { KDF_LIMITS, LEGACY_KDF_FLOOR } from '@lockit/crypto';
import { z } from 'zod';

/**
 * The outer JSON of a Lockit backup file (docs/backup-format.md). Everything but `keyCheck`
 * and `ciphertext` is the header, bound to the ciphertext as AES-GCM associated data
 * (`headerAad`), so no setting in it can be changed without the decryption failing.
 */

export const BACKUP_FORMAT = 'lockit-backup';
export const BACKUP_VERSION = 1;
export const BACKUP_CIPHER = 'AES-256-GCM';
export const BACKUP_SALT_BYTES = 16;
export const BACKUP_NONCE_BYTES = 12;
export const BACKUP_KEY_CHECK_BYTES = 32;
/** A backup of 100,000 items with long histories stays far below this; a bigger file is refused unread. */
export const BACKUP_MAX_BYTES = 512 * 1024 * 1024;

const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64');

export const backupEnvelopeSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(BACKUP_VERSION),
  kdf: z.strictObject({
    algorithm: z.literal('argon2id'),
    memoryKiB: z.int(),
    iterations: z.int(),
    parallelism: z.int(),
    salt: base64,
  }),
  cipher: z.strictObject({ algorithm: z.literal(BACKUP_CIPHER), nonce: base64 }),
  /** HKDF of the backup key with its own label: tells a wrong password from an altered file. */
  keyCheck: base64,
  ciphertext: base64,
});
export type BackupEnvelope = z.infer<typeof backupEnvelopeSchema>;
export type BackupHeader = Pick<BackupEnvelope, 'format' | 'version' | 'kdf' | 'cipher'>;

/**
 * The associated data: UTF-8 of the header's values joined by '|', in this order:
 * `lockit-backup|1|argon2id|<memoryKiB>|<iterations>|<parallelism>|<salt>|AES-256-GCM|<nonce>`
 * (numbers in decimal, salt and nonce exactly as written in the file). Base64 has no '|', so
 * the string splits one way only.
 */
export function headerAad(header: BackupHeader): Uint8Array {
  const { kdf, cipher } = header;
  const parts = [
    header.format,
    String(header.version),
    kdf.algorithm,
    String(kdf.memoryKiB),
    String(kdf.iterations),
    String(kdf.parallelism),
    kdf.salt,
    cipher.algorithm,
    cipher.nonce,
  ];
  return new TextEncoder().encode(parts.join('|'));
}

/**
 * Security invariant: sign-in's ceiling (KDF_LIMITS) and its floor before key generations
 * (LEGACY_KDF_FLOOR). Below the floor, a backup made (or altered) to be cheap to guess is
 * refused; above the ceiling, one that would freeze the page. The floor is the older one because
 * sign-in's rose against a hostile server choosing the params of a new browser's derivation; a
 * backup's params come from the file the person holds, Lockit writes the defaults, and files
 * written before the rise must keep opening. Returns a sentence saying what is wrong, or null.
 */
export function kdfPolicyProblem(kdf: BackupEnvelope['kdf']): string | null {
  const limits = [
    { label: 'memory', unit: ' KiB', value: kdf.memoryKiB, min: LEGACY_KDF_FLOOR.minMemoryKiB, max: KDF_LIMITS.maxMemoryKiB },
    { label: 'passes', unit: '', value: kdf.iterations, min: LEGACY_KDF_FLOOR.minIterations, max: KDF_LIMITS.maxIterations },
    { label: 'lanes', unit: '', value: kdf.parallelism, min: KDF_LIMITS.minParallelism, max: KDF_LIMITS.maxParallelism },
  ];
  const low = limits.filter((l) => l.value < l.min);
  if (low.length > 0) {
    const detail = low.map((l) => `${l.label} ${l.value}${l.unit}, minimum ${l.min}${l.unit}`).join('; ');
    return `This backup's key-derivation settings are weaker than Lockit allows (${detail}); it was not opened.`;
  }
  const high = limits.filter((l) => l.value > l.max);
  if (high.length > 0) {
    const detail = high.map((l) => `${l.label} ${l.value}${l.unit}, maximum ${l.max}${l.unit}`).join('; ');
    return `This backup's key-derivation settings are heavier than Lockit allows (${detail}); it was not opened.`;
  }
  return null;
}
