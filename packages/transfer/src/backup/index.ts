export * from './backup-contents';
export {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  BACKUP_MAX_BYTES,
  backupEnvelopeSchema,
  headerAad,
  kdfPolicyProblem,
  type BackupEnvelope,
  type BackupHeader,
} from './backup-envelope';
export { deriveOnThisThread, type DeriveBackupSecret } from './backup-keys';
export { sealBackup, backupSealer, BACKUP_PASSWORD_MIN_LENGTH, type BackupSealer, type SealBackupOptions } from './seal-backup';
export { openBackup, readBackupEnvelope, BACKUP_ALTERED_MESSAGE } from './open-backup';
export { BACKUP_STREAM_VERSION, BACKUP_FRAME_PLAINTEXT_BYTES, streamHeaderLine } from './backup-stream-format';
export type { BackupFilePlace, BackupFileReader } from './seal-backup-stream';
export {
  openBackupStream,
  BACKUP_CUT_SHORT_MESSAGE,
  BACKUP_EXTRA_MESSAGE,
  type OpenedBackupFile,
  type OpenedBackupStream,
} from './open-backup-stream';
export { openBackupFile, type OpenedBackupWhole } from './open-backup-file';
