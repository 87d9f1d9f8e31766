import { z } from 'zod';
import type { AccountDocumentKind } from '@lockit/contract';
import { decryptField, encryptField } from '@lockit/crypto';
import { accountDocumentAadId } from '@lockit/client-core';

/**
 * An account document is one AES-GCM field under the vault key, holding JSON, sealed with the
 * entry fields' v1 associated data over a namespace of its own:
 * `lockit/v1/entry|account-document:<kind>|notes`. Entry ids are bare UUIDs and folder names
 * use `folder:<id>`, so no entry field or folder name can be passed off as a document (or the
 * reverse), and no kind as another kind (the history as the settings). The account binding is
 * the vault key itself: it is random per account and never shared, so another account's
 * document fails to open (a username would not do: it can be renamed; the server's user id
 * is not known to the browser, and a value the server supplies would bind nothing).
 * Inside, the value is wrapped with the revision the write creates (`{ lockitDocument: 2,
 * revision, value }`), so the revision is authenticated with it: a browser that opened or wrote
 * a document at revision N refuses one sealed at a lower revision, whatever revision number the
 * server puts beside it (use-account-document.ts). Documents sealed before the wrapper open as
 * revision 0.
 */
const documentAadId = accountDocumentAadId;

/** `revision`: the one the write creates (the revision it is based on + 1); 0 only for test fixtures. */
export function sealAccountDocument(
  vaultKey: CryptoKey,
  kind: AccountDocumentKind,
  value: unknown,
  revision = 0,
): Promise<string> {
  return encryptField(vaultKey, documentAadId(kind), 'notes', JSON.stringify({ lockitDocument: 2, revision, value }));
}

export type OpenedAccountDocument<T> = { ok: true; value: T } | { ok: false };
export type OpenedSealedDocument<T> = { ok: true; value: T; revision: number } | { ok: false };

const wrapperSchema = z.object({ lockitDocument: z.literal(2), revision: z.number().int().min(0), value: z.unknown() });

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
  const opened = await openSealedDocument(vaultKey, kind, ciphertext, schema);
  return opened.ok ? { ok: true, value: opened.value } : opened;
}

/** As openAccountDocument, with the revision sealed inside (0 for a document from before the wrapper). */
export async function openSealedDocument<T>(
  vaultKey: CryptoKey,
  kind: AccountDocumentKind,
  ciphertext: string,
  schema: z.ZodType<T>,
): Promise<OpenedSealedDocument<T>> {
  let json: unknown;
  try {
    json = JSON.parse(await decryptField(vaultKey, documentAadId(kind), 'notes', ciphertext));
  } catch {
    return { ok: false };
  }
  const wrapped = wrapperSchema.safeParse(json);
  const parsed = schema.safeParse(wrapped.success ? wrapped.data.value : json);
  return parsed.success ? { ok: true, value: parsed.data, revision: wrapped.success ? wrapped.data.revision : 0 } : { ok: false };
}
