import { accountDocumentParamsSchema, type AccountDocumentKind, type AccountDocumentWire } from '@lockit/contract';
import type { StoredAccountDocument } from '../../db/repositories/account-documents-repository';
import { parseInput } from '../../http/parse-body';

/** The stored row as the API sends it: the ciphertext as stored, the time as an ISO string. */
export function toAccountDocumentWire(row: StoredAccountDocument): AccountDocumentWire {
  return {
    kind: row.kind as AccountDocumentKind,
    ciphertext: row.ciphertext,
    revision: row.revision,
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** The kind from the path: one of the contract's kinds, else 400 naming them. */
export function accountDocumentKindFromParams(params: unknown): AccountDocumentKind {
  return parseInput(accountDocumentParamsSchema, params).kind;
}
