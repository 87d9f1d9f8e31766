export { MemoryKeyValueStore, type KeyValueStore } from './platform/key-value-store';
export { accountRefOf, foldAccountName, parseAccountRef, sameAccountName, type AccountRef } from './device-memory/account-ref';
export {
  DeviceMemory,
  RememberedKdfDowngradeError,
  UnknownSessionAccountError,
  type KdfStrength,
} from './device-memory/device-memory';
export { checkServerKeySettings, type CheckedKeySettings } from './keys/key-settings-policy';
export { AnsweredAccountMismatchError, checkAnsweredAccount } from './keys/account-answer';
