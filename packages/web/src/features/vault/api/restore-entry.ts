import { apiPaths, entryResponseSchema, type EntryWire } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

/** POST /api/passwords/restore/{id}: back from Trash; answers the live entry. */
export async function restoreEntry(id: string, revision: number): Promise<EntryWire> {
  const answer = await apiRequest(apiPaths.restoreEntry(id), {
    method: 'POST',
    body: { revision },
    schema: entryResponseSchema,
    protectedCall: true,
  });
  return answer.data;
}
