import { apiPaths, entryResponseSchema, type AddEntryRequest, type EntryWire } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';
import { vaultStateHeaders } from '../integrity/vault-state-api';

/** POST /api/passwords/add: ciphertexts only, under an id the client made; answers the stored entry. */
export async function addEntry(body: AddEntryRequest, vaultState?: string): Promise<EntryWire> {
  const answer = await apiRequest(apiPaths.addEntry, {
    method: 'POST',
    body,
    schema: entryResponseSchema,
    protectedCall: true,
    headers: vaultStateHeaders(vaultState),
  });
  return answer.data;
}
