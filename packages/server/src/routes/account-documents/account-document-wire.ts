import type { AccountDocumentKind, AccountDocumentWire } from '@lockit/contract';
import type { StoredAccountDocument } from '../../db/repositories/account-documents-repository';

/** The stored row as the API sends it: the ciphertext as stored, the time as an ISO string. */
export function toAccountDocumentWire(row: StoredAccountDocument): AccountDocumentWire {
  return {
    kind: row.kind as AccountDocumentKind,
    ciphertext: row.ciphertext,
    revision: row.revision,
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
