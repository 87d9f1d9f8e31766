import { aesGcmDecrypt, AuthenticationFailedError } from '@lockit/crypto';
import { ImportFileError, ImportPasswordError } from '../import-format';
import { BACKUP_CONTENTS_VERSION, backupContentsSchema, type BackupContents } from './backup-contents';
import {
  BACKUP_FORMAT,
  BACKUP_KEY_CHECK_BYTES,
  BACKUP_MAX_BYTES,
  BACKUP_NONCE_BYTES,
  BACKUP_SALT_BYTES,
  BACKUP_VERSION,
  backupEnvelopeSchema,
  headerAad,
  kdfPolicyProblem,
  type BackupEnvelope,
} from './backup-envelope';
import { deriveBackupKeys, deriveOnThisThread, type DeriveBackupSecret } from './backup-keys';
import { fromBase64 } from './base64';

export const BACKUP_ALTERED_MESSAGE =
  'This backup was changed after it was made: its contents or settings no longer match their seal. Nothing was read from it.';

/** The envelope of a backup file, checked, or an ImportFileError saying what is wrong. No key is derived. */
export function readBackupEnvelope(text: string): BackupEnvelope {
  if (text.length > BACKUP_MAX_BYTES) throw new ImportFileError('This file is too large to be a Lockit backup.');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ImportFileError('This file is not a Lockit backup: it is not JSON.');
  }
  const raw = (typeof json === 'object' && json !== null ? json : {}) as { format?: unknown; version?: unknown };
  if (raw.format !== BACKUP_FORMAT)
    throw new ImportFileError('This file is not a Lockit backup: it has no "lockit-backup" format.');
  if (raw.version !== BACKUP_VERSION) {
    throw new ImportFileError(
      typeof raw.version === 'number' && raw.version > BACKUP_VERSION
        ? `This backup has format version ${raw.version}, newer than this Lockit reads (${BACKUP_VERSION}). Update Lockit to open it.`
        : 'This Lockit backup has no format version Lockit knows.',
    );
  }
  const parsed = backupEnvelopeSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ImportFileError(`This Lockit backup is damaged: "${issue?.path.join('.') ?? ''}" ${issue?.message ?? 'is wrong'}.`);
  }
  return parsed.data;
}

function decode(text: string, what: string, bytes?: number): Uint8Array<ArrayBuffer> {
  let value: Uint8Array<ArrayBuffer>;
  try {
    value = fromBase64(text);
  } catch {
    throw new ImportFileError(`This Lockit backup is damaged: its ${what} is not base64.`);
  }
  if (bytes !== undefined && value.length !== bytes) {
    throw new ImportFileError(`This Lockit backup is damaged: its ${what} must be ${bytes} bytes.`);
  }
  return value;
}

/** Equal-length byte strings compared without an early exit. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

/**
 * Opens a backup file with its password: the envelope checked, the KDF settings checked
 * against the sign-in policy (floor and ceiling) BEFORE any key is derived, the key check
 * compared, the ciphertext decrypted with the header as associated data, the plaintext parsed
 * against the allow-list.
 *
 * Throws ImportPasswordError('missing' | 'wrong') when the password is absent or does not
 * match the key check (or the KDF settings or salt were altered, which changes the key);
 * ImportFileError for a file that is not a backup, is damaged, is outside the policy, or was
 * altered (header, nonce or ciphertext: BACKUP_ALTERED_MESSAGE). Never returns part of a file.
 */
export async function openBackup(
  text: string,
  password: string | undefined,
  { derive = deriveOnThisThread }: { derive?: DeriveBackupSecret } = {},
): Promise<BackupContents> {
  const envelope = readBackupEnvelope(text);
  const problem = kdfPolicyProblem(envelope.kdf);
  if (problem !== null) throw new ImportFileError(problem);
  const salt = decode(envelope.kdf.salt, 'salt', BACKUP_SALT_BYTES);
  const nonce = decode(envelope.cipher.nonce, 'nonce', BACKUP_NONCE_BYTES);
  const storedCheck = decode(envelope.keyCheck, 'key check', BACKUP_KEY_CHECK_BYTES);
  const ciphertext = decode(envelope.ciphertext, 'ciphertext');
  if (password === undefined || password === '') throw new ImportPasswordError('missing');

  const { algorithm: _algorithm, salt: _salt, ...params } = envelope.kdf;
  const { key, keyCheck } = await deriveBackupKeys(password, salt, { algorithm: 'argon2id', ...params }, derive);
  if (!sameBytes(keyCheck, storedCheck)) throw new ImportPasswordError('wrong');

  let plaintext: Uint8Array;
  try {
    plaintext = await aesGcmDecrypt(key, nonce, ciphertext, headerAad(envelope));
  } catch (error) {
    if (error instanceof AuthenticationFailedError) throw new ImportFileError(BACKUP_ALTERED_MESSAGE);
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(plaintext));
  } catch {
    throw new ImportFileError('This Lockit backup opened, but what it holds is not JSON.');
  } finally {
    plaintext.fill(0);
  }
  const contents = backupContentsSchema.safeParse(json);
  if (!contents.success || contents.data.version !== BACKUP_CONTENTS_VERSION) {
    // A version 1 file holds no files: contents listing them belong in a version 2 file.
    const issue = contents.error?.issues[0] ?? { path: ['version'], message: 'must be 1 in a version 1 file' };
    throw new ImportFileError(
      `This Lockit backup opened, but "${issue.path.join('.')}" is not what Lockit writes: ${issue.message}.`,
    );
  }
  return contents.data;
}
