import type { z } from 'zod';
import type { AccountDocumentKind } from '@lockit/contract';
import { decryptField, encryptField } from '@lockit/crypto';

/**
 * An account document is one AES-GCM field under the vault key, holding JSON, sealed with the
 * entry fields' v1 associated data over a namespace of its own:
 * `lockit/v1/entry|account-document:<kind>|notes`. Entry ids are bare UUIDs and folder names
 * use `folder:<id>`, so no entry field or folder name can be passed off as a document (or the
 * reverse), and no kind as another kind (the history as the settings). The account binding is
 * the vault key itself: it is random per account and never shared, so another account's
 * document fails to open (a username would not do: it can be renamed; the server's user id
 * is not known to the browser, and a value the server supplies would bind nothing).
 * What it does not catch, like any single field: a server serving an older version.
 */
const documentAadId = (kind: AccountDocumentKind) => `account-document:${kind}`;

export function sealAccountDocument(vaultKey: CryptoKey, kind: AccountDocumentKind, value: unknown): Promise<string> {
  return encryptField(vaultKey, documentAadId(kind), 'notes', JSON.stringify(value));
}

export type OpenedAccountDocument<T> = { ok: true; value: T } | { ok: false };

/**
 * The document's value, or `{ ok: false }` when it does not decrypt, is not JSON or does not
 * match `schema` (damaged: the caller shows it as such and never writes over it unasked).
 */
export async function openAccountDocument<T>(
  vaultKey: CryptoKey,
  kind: AccountDocumentKind,
  ciphertext: string,
  schema: z.ZodType<T>,
): Promise<OpenedAccountDocument<T>> {
  let json: unknown;
  try {
    json = JSON.parse(await decryptField(vaultKey, documentAadId(kind), 'notes', ciphertext));
  } catch {
    return { ok: false };
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false };
}

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
  const text = await decryptField(oldKey, documentAadId(kind), 'notes', ciphertext);
  return encryptField(newKey, documentAadId(kind), 'notes', text);
}
