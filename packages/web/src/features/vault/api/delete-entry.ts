import { apiPaths, entryResponseSchema, type EntryWire } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';
import { vaultStateHeaders } from '../integrity/vault-state-api';
import { withRevision } from './with-revision';

/**
 * DELETE /api/passwords/delete/{id}?revision=N: moves the entry to Trash (the spec's delete);
 * answers the trashed entry. A stale revision is a 409 with the current entry (entryConflictOf).
 */
export async function deleteEntry(id: string, revision: number, vaultState?: string): Promise<EntryWire> {
  const answer = await apiRequest(withRevision(apiPaths.deleteEntry(id), revision), {
    method: 'DELETE',
    schema: entryResponseSchema,
    protectedCall: true,
    headers: vaultStateHeaders(vaultState),
  });
  return answer.data;
}
