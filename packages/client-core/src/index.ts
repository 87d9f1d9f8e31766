export { MemoryKeyValueStore, type KeyValueStore } from './platform/key-value-store';
export { accountRefOf, foldAccountName, parseAccountRef, sameAccountName, type AccountRef } from './device-memory/account-ref';
export {
  DeviceMemory,
  RememberedKdfDowngradeError,
  UnknownSessionAccountError,
  type KdfStrength,
} from './device-memory/device-memory';
export { checkServerKeyEpoch, checkServerKeySettings, type CheckedKeySettings } from './keys/key-settings-policy';
export { AnsweredAccountMismatchError, checkAnsweredAccount } from './keys/account-answer';
export {
  ApiError,
  NetworkError,
  NoSessionError,
  retryAfterSeconds,
  serverMessageOf,
  UnexpectedResponseError,
} from './http/api-errors';
export type { Transport, TransportRequest, TransportResponse } from './http/transport';
export {
  ApiClient,
  type AnswerSchema,
  type ApiAnswer,
  type ApiClientOptions,
  type HttpMethod,
  type PathRequest,
} from './http/api-client';
export type { RouteAnswer, RouteInput } from './http/route-types';
export type { DeriveKeys, KeyMaterial, KeyOpener, KeyPlatform, VaultAccount } from './keys/client-keys';
export { openVaultKeys, type OpenVault } from './keys/open-vault-keys';
export { openSignedInVault, VaultUnlockError, type CheckedSignInKeys } from './keys/open-signed-in-vault';
export { rewrapVaultKey, upgradeBelowFloor, type Rewrapped } from './keys/rewrap-vault-key';
export { unlockWithPassword, WRONG_MASTER_PASSWORD, WrongMasterPasswordError } from './keys/unlock-with-password';
export { signIn, type SecondFactorNeeded, type SignedIn } from './session/sign-in';
export {
  PendingSecondFactor,
  SecondFactorExpiredError,
  SecondFactorInputError,
  SecurityKeyError,
  type SecondFactorSignedIn,
  type SecurityKeyCeremony,
} from './session/pending-second-factor';
export type { Transferable, WorkerPort, WorkerScope } from './workers/worker-port';
export { serveJobs, type JobWork } from './workers/serve-jobs';
export {
  inWorkersOrHere,
  poolSize,
  WorkerPool,
  WorkerUnavailable,
  type RunOptions,
  type WorkerPoolOptions,
} from './workers/worker-pool';
export {
  openWithPasskeyKey,
  PasskeyUnlockError,
  userHandleOf,
  type PasskeyAssertion,
  type PasskeyCeremony,
} from './keys/passkey-keys';
export { PasskeyNoPrfError, unlockWithPasskey } from './keys/unlock-with-passkey';
export { signInWithPasskey, type CannotUnlockReason, type PasskeySignInResult } from './session/passkey-sign-in';
export * from './vault/vault-entry';
export * from './vault/open-entries';
export * from './vault/seal-entry';
export * from './vault/entry-drafts';
export * from './vault/entry-plaintext';
export * from './vault/open-draft';
export * from './vault/ssh-key';
export * from './vault/ssh-key-passphrase';
export * from './vault/ssh-key-entry';
export * from './vault/word-search';
export * from './vault/revision-memory';
export * from './vault/yield-to-main';
export * from './vault/integrity/entry-members';
export * from './vault/integrity/vault-members';
export * from './vault/integrity/check-vault-state';
export * from './vault/integrity/vault-manifest';
export * from './vault/integrity/trash-time';
export * from './vault/integrity/state-fingerprint';
export { foldForMatching, foldForSearch, matchesWords, nameSortKey, queryWords } from './vault/search-text';
export { unlockWithKeyMaterial } from './keys/unlock-with-password';
export {
  MemoryOfflineCopyStore,
  NoOfflineCopyError,
  OfflineCopyDamagedError,
  readOfflineCopy,
  type OfflineCopy,
  type OfflineCopyStore,
} from './offline/offline-copy';
export { saveServedCopy, unlockOfflineCopy, type OfflinePlatform } from './offline/offline-unlock';
export { NoOfflinePasskeyError, unlockOfflineCopyWithPasskey } from './offline/offline-passkey-unlock';
export { readPasskeyUnlocks, type OfflinePasskeyUnlock } from './offline/passkey-unlock-store';
export { MemoryPendingWriteStore, readPendingWrites, type PendingWrite, type PendingWriteStore } from './offline/pending-writes';
export { pendingEntryView, withPendingWrites } from './offline/pending-view';
export { EntryWriteQueue, type EntryWriteQueuePlatform, type QueuedChange } from './offline/entry-write-queue';
export { QueuedEntryWrites, type Queued, type ReplayOutcome, type ReplayReport } from './offline/queued-entry-writes';
export * from './vault/draft-diff';
export * from './vault/url-match-words';
export { checkFolderName, openFolder, openFolderName, openFolders, sealFolderName } from './vault/folders/folder-name';
export { SILENT_LOG, type CoreLog } from './platform/core-log';
export {
  emptyTrackedSet,
  nextVaultState,
  OutOfStep,
  type MemberChange,
  type NextState,
  type TrackedSet,
  type TrashedMember,
} from './vault/integrity/member-change';
export { fetchServedEntries, loadVaultSnapshot, trackedSetOf, type VaultSnapshot } from './vault/integrity/vault-snapshot';
export { isVaultStateRefusal, vaultStateHeaders } from './vault/integrity/vault-state-answers';
export {
  INTEGRITY_REFUSED,
  MANIFEST_DELAY_MS,
  MAX_WRITE_TRIES,
  VaultIntegrity,
  VaultIntegrityRefusedError,
  writeThrough,
  type VaultIntegrityPlatform,
} from './vault/integrity/vault-integrity';
export { entryConflictOf, folderConflictOf, isGone } from './vault/writes/conflict-answers';
export { writeWithState, type VaultWritesPlatform } from './vault/writes/write-platform';
export {
  EntryWrites,
  type Conflict,
  type Gone,
  type PurgeResult,
  type SaveResult,
  type Saved,
  type TrashResult,
} from './vault/writes/entry-writes';
export { FolderWrites, type FolderConflict, type FolderSaved, type InvalidName } from './vault/writes/folder-writes';
export {
  fetchEntryHistories,
  fetchEntryHistory,
  MissingHistoryError,
  openEntryHistory,
  type OpenVersion,
} from './vault/writes/entry-history';
export {
  EntryConflictResolution,
  type ChoiceOutcome,
  type ConflictChoice,
  type EntryConflictSides,
} from './vault/writes/entry-conflict';
export { purgeExpiredTrash, trashRetentionDays, type PurgeExpiredPlatform } from './vault/writes/purge-expired-trash';
export { endOtherSessions, endSession, listSessions, logOut } from './session/device-sessions';
export * from './vault/sync/changes-since';
export * from './vault/sync/vault-mirror';
export * from './vault/sync/catch-up';
export * from './vault/sync/live-changes';
export * from './attachments/index';
export * from './vault/totp';
export * from './generator';
export * from './keys/rotation/index';
