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
export { sealBackup, BACKUP_PASSWORD_MIN_LENGTH, type SealBackupOptions } from './seal-backup';
export { openBackup, readBackupEnvelope, BACKUP_ALTERED_MESSAGE } from './open-backup';
