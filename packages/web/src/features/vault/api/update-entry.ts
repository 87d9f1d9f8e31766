import { apiPaths, entryResponseSchema, type EntryWire, type UpdateEntryRequest } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';
import { vaultStateHeaders } from '../integrity/vault-state-api';

/**
 * PUT /api/passwords/update-password/{id}: the full entry, freshly encrypted, and the revision
 * it is based on. The server refuses (409, see entryConflictOf) an update of an entry changed
 * meanwhile, e.g. in another tab; fields sent as null are cleared.
 */
export async function updateEntry(id: string, body: UpdateEntryRequest, vaultState?: string): Promise<EntryWire> {
  const answer = await apiRequest(apiPaths.updateEntry(id), {
    method: 'PUT',
    body,
    schema: entryResponseSchema,
    protectedCall: true,
    headers: vaultStateHeaders(vaultState),
  });
  return answer.data;
}
