import { apiPaths, messageResponseSchema } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';
import { vaultStateHeaders } from '../integrity/vault-state-api';
import { withRevision } from './with-revision';

/**
 * DELETE /api/passwords/purge/{id}?revision=N: deletes a trashed entry and its history for
 * good, with the vault state after it (Trash is in it, decision 0061). A live entry, or a
 * stale revision, is a 409.
 */
export async function purgeEntry(id: string, revision: number, vaultState?: string): Promise<void> {
  await apiRequest(withRevision(apiPaths.purgeEntry(id), revision), {
    method: 'DELETE',
    schema: messageResponseSchema,
    protectedCall: true,
    headers: vaultStateHeaders(vaultState),
  });
}
