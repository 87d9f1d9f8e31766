import { aesGcmEncrypt, DEFAULT_KDF_PARAMS, type KdfParams } from '@lockit/crypto';
import {
  BACKUP_CONTENTS_VERSION,
  BACKUP_CONTENTS_WITH_FILES_VERSION,
  backupContentsSchema,
  type BackupContents,
} from './backup-contents';
import {
  BACKUP_CIPHER,
  BACKUP_FORMAT,
  BACKUP_NONCE_BYTES,
  BACKUP_SALT_BYTES,
  BACKUP_VERSION,
  headerAad,
  kdfPolicyProblem,
  type BackupEnvelope,
  type BackupHeader,
} from './backup-envelope';
import { deriveBackupKeySets, deriveOnThisThread, type DeriveBackupSecret } from './backup-keys';
import { toBase64 } from './base64';
import { sealStream, type BackupFileReader } from './seal-backup-stream';

/** The shortest backup password Lockit accepts: the file may be copied anywhere and guessed offline. */
export const BACKUP_PASSWORD_MIN_LENGTH = 12;

export interface SealBackupOptions {
  /** Argon2id settings; Lockit's default (m = 64 MiB, t = 3, p = 4) when absent. Must pass KDF_LIMITS. */
  kdf?: KdfParams;
  /** Runs Argon2id (the web app passes its worker); this thread when absent. */
  derive?: DeriveBackupSecret;
}

/**
 * Seals a vault's contents under a key already derived; see backupSealer. Called, it writes a
 * version 1 file (no files); `withFiles` writes a version 2 file, the contents and then each
 * file's bytes, as the pieces of the file in order.
 */
export interface BackupSealer {
  (contents: BackupContents): Promise<string>;
  withFiles(contents: BackupContents, readFile: BackupFileReader): AsyncGenerator<Uint8Array>;
}

/**
 * The encrypted backup file's text: `contents` as JSON, encrypted with AES-256-GCM under a
 * key derived from `password` by Argon2id (fresh 16-byte salt) and HKDF, a fresh 96-bit
 * nonce, the header as associated data. The same module the offline command opens it with.
 *
 * Security invariants: contents that would not read back (outside the allow-list) are
 * refused before anything is encrypted; KDF settings outside the sign-in policy are refused;
 * no key material leaves this function.
 */
export async function sealBackup(contents: BackupContents, password: string, options: SealBackupOptions = {}): Promise<string> {
  checkPassword(password);
  checkContents(contents, BACKUP_CONTENTS_VERSION);
  const seal = await backupSealer(password, options);
  return seal(contents);
}

/**
 * sealBackup in two steps, so the slow one (Argon2id) can run while the contents are still
 * being gathered: the key is derived now, and the function it resolves to seals one backup.
 * A second call of that function is refused: salt and nonce are used for one file only.
 *
 * Security invariants: as sealBackup's; the derived key is held only by the returned
 * function and is never exported.
 */
export async function backupSealer(password: string, options: SealBackupOptions = {}): Promise<BackupSealer> {
  checkPassword(password);
  const params = options.kdf ?? DEFAULT_KDF_PARAMS;
  const salt = globalThis.crypto.getRandomValues(new Uint8Array(BACKUP_SALT_BYTES));
  const nonce = globalThis.crypto.getRandomValues(new Uint8Array(BACKUP_NONCE_BYTES));
  const header: BackupHeader = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    kdf: {
      algorithm: 'argon2id',
      memoryKiB: params.memoryKiB,
      iterations: params.iterations,
      parallelism: params.parallelism,
      salt: toBase64(salt),
    },
    cipher: { algorithm: BACKUP_CIPHER, nonce: toBase64(nonce) },
  };
  const problem = kdfPolicyProblem(header.kdf);
  if (problem !== null) throw new RangeError(problem);

  const keys = await deriveBackupKeySets(password, salt, params, options.derive ?? deriveOnThisThread, [1, 2]);
  let used = false;
  const useOnce = () => {
    if (used) throw new Error('A backup sealer seals one file: make another for the next.');
    used = true;
  };
  const seal = async (contents: BackupContents): Promise<string> => {
    useOnce();
    checkContents(contents, BACKUP_CONTENTS_VERSION);
    const { key, keyCheck } = keys[1];
    const plaintext = new TextEncoder().encode(JSON.stringify(contents));
    const ciphertext = await aesGcmEncrypt(key, nonce, plaintext, headerAad(header));
    plaintext.fill(0);
    const envelope: BackupEnvelope = { ...header, keyCheck: toBase64(keyCheck), ciphertext: toBase64(ciphertext) };
    // The header pretty-printed for a person who opens the file; the ciphertext on one line.
    return `${JSON.stringify(envelope, null, 2)}\n`;
  };
  seal.withFiles = (contents: BackupContents, readFile: BackupFileReader): AsyncGenerator<Uint8Array> => {
    useOnce();
    checkContents(contents, BACKUP_CONTENTS_WITH_FILES_VERSION);
    const { kdf } = header;
    return sealStream(
      keys[2],
      { format: BACKUP_FORMAT, version: 2, kdf, cipher: { algorithm: BACKUP_CIPHER } },
      contents,
      readFile,
    );
  };
  return seal;
}

function checkPassword(password: string): void {
  if ([...password].length < BACKUP_PASSWORD_MIN_LENGTH) {
    throw new RangeError(`The backup password must have at least ${BACKUP_PASSWORD_MIN_LENGTH} characters.`);
  }
}

function checkContents(contents: BackupContents, version = contents.version): void {
  if (contents.version !== version) throw new TypeError(`The backup cannot hold this vault: version must be ${version}.`);
  const checked = backupContentsSchema.safeParse(contents);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new TypeError(`The backup cannot hold this vault: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
  }
}
