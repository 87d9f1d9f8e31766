import { apiPaths, entryResponseSchema, type EntryWire } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';
import { vaultStateHeaders } from '../integrity/vault-state-api';

/** POST /api/passwords/restore/{id}: back from Trash; answers the live entry. */
export async function restoreEntry(id: string, revision: number, vaultState?: string): Promise<EntryWire> {
  const answer = await apiRequest(apiPaths.restoreEntry(id), {
    method: 'POST',
    body: { revision },
    schema: entryResponseSchema,
    protectedCall: true,
    headers: vaultStateHeaders(vaultState),
  });
  return answer.data;
}
