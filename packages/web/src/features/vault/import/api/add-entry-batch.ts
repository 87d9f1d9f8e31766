import { apiPaths, entryBatchResponseSchema, type AddEntryRequest } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';
import { vaultStateHeaders } from '@lockit/client-core';

/**
 * POST /api/entries/batch: one call of an import, sealed entries only, stored whole or not at
 * all. Every call of one import names the same batch id (the undo takes it).
 */
export async function addEntryBatch(batchId: string, entries: AddEntryRequest[], vaultState?: string): Promise<number> {
  const answer = await apiRequest(apiPaths.entryBatch, {
    method: 'POST',
    body: { batchId, entries },
    schema: entryBatchResponseSchema,
    protectedCall: true,
    headers: vaultStateHeaders(vaultState),
  });
  return answer.data.added;
}
