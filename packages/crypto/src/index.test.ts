import { describe, expect, it } from 'vitest';
import * as lockitCrypto from './index';

describe('the package entry point', () => {
  it('exports the agreed public API', () => {
    const names = [
      'KDF_LIMITS',
      'DEFAULT_KDF_PARAMS',
      'checkKdfParams',
      'KdfParamsRejectedError',
      'toBase64Url',
      'fromBase64Url',
      'randomSalt',
      'newEntryId',
      'deriveMasterKey',
      'hkdfSha256',
      'aesGcmEncrypt',
      'aesGcmDecrypt',
      'deriveAccountKeys',
      'deriveKeysFromPassword',
      'generateVaultKeyBytes',
      'wrapVaultKey',
      'unwrapVaultKey',
      'importVaultKey',
      'checkKeyGeneration',
      'checkKeyEpoch',
      'KeyEpochRolledBackError',
      'LEGACY_KDF_FLOOR',
      'deviceKdfCeiling',
      'checkKdfFitsDevice',
      'KeyGenerationRolledBackError',
      'VaultKeyRejectedError',
      'encryptField',
      'decryptField',
      'FieldDecryptionError',
      'CIPHERTEXT_VERSION',
      'CIPHERTEXT_PATTERN',
      'PADDED_CIPHERTEXT_VERSION',
      'paddedLength',
      'isPaddedLength',
      'sealPadded',
      'openSealed',
      'formatCiphertext',
      'parseCiphertext',
      'CiphertextFormatError',
      'passkeyPrfInput',
      'wrapVaultKeyForPasskey',
      'unwrapVaultKeyWithPasskey',
      'VAULT_INTEGRITY_INFO',
      'deriveVaultIntegrityKey',
      'deriveVaultIntegrityKeyFromHkdf',
      'entryElement',
      'folderElement',
      'EMPTY_SUM',
      'addElement',
      'subtractElement',
      'sumOfElements',
      'sealVaultState',
      'verifyVaultState',
      'sumFromState',
    ];
    for (const name of names) expect(lockitCrypto, name).toHaveProperty(name);
  });

  it('does not export the policy-free Argon2id, so app code cannot skip the KDF limits', () => {
    expect(lockitCrypto).not.toHaveProperty('argon2idRaw');
  });
});
