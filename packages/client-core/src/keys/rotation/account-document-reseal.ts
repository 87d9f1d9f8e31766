import type { AccountDocumentKind } from '@lockit/contract';
import { decryptField, encryptField } from '@lockit/crypto';

/**
 * The associated-data id of an account document: the entry fields' v1 binding over a namespace
 * of its own (`account-document:<kind>`), so no entry field or folder name can be passed off as
 * a document, nor one kind as another. The web app seals and opens documents with it too.
 */
export const accountDocumentAadId = (kind: AccountDocumentKind) => `account-document:${kind}`;

/**
 * A key rotation's copy of a stored document: its text opened under `oldKey` and sealed, as
 * is (not parsed, so nothing in it is lost or reordered), under `newKey` with the same
 * binding to its kind. Throws FieldDecryptionError when it does not open under `oldKey`.
 */
export async function resealAccountDocument(
  oldKey: CryptoKey,
  newKey: CryptoKey,
  kind: AccountDocumentKind,
  ciphertext: string,
): Promise<string> {
  const text = await decryptField(oldKey, accountDocumentAadId(kind), 'notes', ciphertext);
  return encryptField(newKey, accountDocumentAadId(kind), 'notes', text);
}
