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
export * from './vault/word-search';
export * from './vault/revision-memory';
export * from './vault/yield-to-main';
export * from './vault/integrity/entry-members';
export * from './vault/integrity/vault-members';
export * from './vault/integrity/check-vault-state';
export * from './vault/integrity/vault-manifest';
export * from './vault/integrity/trash-time';
export { foldForMatching, foldForSearch, matchesWords, nameSortKey, queryWords } from './vault/search-text';
export * from './vault/folder-name-seal';
export * from './vault/totp';
export * from './generator';
