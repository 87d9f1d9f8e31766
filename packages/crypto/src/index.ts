export * from './kdf-params';
export * from './ciphertext-format';
export * from './errors';
export { toBase64Url, fromBase64Url } from './encoding';
export { randomBytes, randomSalt, newEntryId } from './random';
export { deriveMasterKey } from './kdf';
export { hkdfSha256 } from './hkdf';
export { aesGcmEncrypt, aesGcmDecrypt } from './aes-gcm';
export { paddedLength, isPaddedLength } from './length-padding';
export { sealPadded, openSealed } from './sealed-text';
export { deriveAccountKeys, deriveKeysFromPassword, type AccountKeys } from './account-keys';
export {
  generateVaultKeyBytes,
  wrapVaultKey,
  unwrapVaultKey,
  importVaultKey,
  checkKeyGeneration,
  MAX_KEY_GENERATION,
  checkKeyEpoch,
  MAX_KEY_EPOCH,
} from './vault-key';
export {
  VAULT_INTEGRITY_INFO,
  deriveVaultIntegrityKey,
  deriveVaultIntegrityKeyFromHkdf,
  entryElement,
  folderElement,
  trashedEntryElement,
  trashedElementOf,
  EMPTY_SUM,
  addElement,
  subtractElement,
  sumOfElements,
  sealVaultState,
  verifyVaultState,
  sumFromState,
  type VaultEntryMember,
  type VaultFolderMember,
  type TrashedMember,
  type VaultStateBody,
  type SealedVaultState,
} from './vault-integrity';
export { deviceKdfCeiling, checkKdfFitsDevice, type DeviceProfile, type KdfCeiling } from './device-kdf-ceiling';
export {
  encryptField,
  decryptField,
  entryFieldSet,
  boundOverviewAad,
  openOverview,
  sealBoundOverview,
  ENTRY_FIELD_NAMES,
  type EntryFieldName,
  type EntryFieldSet,
  type OverviewSiblings,
} from './fields';
export { openEntryFields, openEntryOverview, sealEntryFields, storedFieldSet, type EntryTexts } from './entry-fields';
export {
  PASSKEY_PRF_LABEL,
  passkeyPrfInput,
  passkeyPrfInputBase64Url,
  wrapVaultKeyForPasskey,
  unwrapVaultKeyWithPasskey,
  type PasskeyBinding,
} from './passkey-unlock';
export * from './attachments/index';
export * from './share-links/index';
