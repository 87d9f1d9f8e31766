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
