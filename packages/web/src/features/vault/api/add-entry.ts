import { apiPaths, entryResponseSchema, type AddEntryRequest, type EntryWire } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

/** POST /api/passwords/add: ciphertexts only, under an id the client made; answers the stored entry. */
export async function addEntry(body: AddEntryRequest): Promise<EntryWire> {
  const answer = await apiRequest(apiPaths.addEntry, { method: 'POST', body, schema: entryResponseSchema, protectedCall: true });
  return answer.data;
}
