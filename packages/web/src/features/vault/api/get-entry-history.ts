import { apiPaths, entryHistoryResponseSchema, type EntryVersionWire } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

/** GET /api/passwords/history/{id}: the entry's earlier versions, still encrypted, newest first. */
export async function getEntryHistory(id: string): Promise<EntryVersionWire[]> {
  const answer = await apiRequest(apiPaths.entryHistory(id), {
    method: 'GET',
    schema: entryHistoryResponseSchema,
    protectedCall: true,
  });
  return answer.data;
}
