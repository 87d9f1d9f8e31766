import { apiPaths, entryResponseSchema, TRASHED_AT_HEADER, type EntryWire } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';
import { vaultStateHeaders } from '../integrity/vault-state-api';
import { withRevision } from './with-revision';

/**
 * DELETE /api/passwords/delete/{id}?revision=N: moves the entry to Trash (the spec's delete)
 * since `trashedAt` (the time sealed into its element, decision 0061); answers the trashed
 * entry. A stale revision is a 409 with the current entry (entryConflictOf).
 */
export async function deleteEntry(
  id: string,
  revision: number,
  vaultState: string | undefined,
  trashedAt: number,
): Promise<EntryWire> {
  const answer = await apiRequest(withRevision(apiPaths.deleteEntry(id), revision), {
    method: 'DELETE',
    schema: entryResponseSchema,
    protectedCall: true,
    headers: { ...vaultStateHeaders(vaultState), [TRASHED_AT_HEADER]: String(trashedAt) },
  });
  return answer.data;
}
