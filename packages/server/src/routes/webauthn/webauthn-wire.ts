import type { WebauthnCredential } from '@lockit/contract';
import type { WebauthnCredentialRow } from '../../db/repositories/webauthn-repository';

/** A credential as Profile lists it: never its public key, counter or wrapped key. */
export function toWireCredential(row: WebauthnCredentialRow): WebauthnCredential {
  return {
    id: row.id,
    name: row.name,
    createdAt: new Date(Number(row.created_at)).toISOString(),
    lastUsedAt: row.last_used_at === null ? null : new Date(Number(row.last_used_at)).toISOString(),
    canUnlock: row.unlock_key !== null,
    backedUp: row.backed_up === 1,
  };
}
