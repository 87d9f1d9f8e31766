import { decryptField, encryptField } from '@lockit/crypto';

/**
 * A folder name is one AES-GCM field under the vault key, sealed with the entry fields' v1
 * associated data over a namespace of its own: `lockit/v1/entry|folder:<folder id>|serviceName`.
 * Entry ids are bare UUIDs, so no entry field has that associated data: a folder name can
 * never be passed off as an entry field (or the reverse), nor moved to another folder. This
 * needs nothing new in @lockit/crypto. What it does not catch, like any single field: a server
 * serving an older name of the same folder. Shared code: the vault seals and opens names, a key
 * rotation re-seals them, and both must use this one binding.
 */
const folderAadId = (folderId: string) => `folder:${folderId}`;

export function sealFolderName(vaultKey: CryptoKey, folderId: string, name: string): Promise<string> {
  return encryptField(vaultKey, folderAadId(folderId), 'serviceName', name);
}

/** The folder's name; throws FieldDecryptionError when it does not open under `vaultKey` for this folder. */
export function openFolderName(vaultKey: CryptoKey, folderId: string, ciphertext: string): Promise<string> {
  return decryptField(vaultKey, folderAadId(folderId), 'serviceName', ciphertext);
}
