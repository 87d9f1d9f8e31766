import { apiPaths, undoEntryBatchResponseSchema, type UndoEntryBatchResult } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';
import { vaultStateHeaders } from '../../integrity/vault-state-api';

/**
 * DELETE /api/entries/batch/{batchId}: undoes every call of one import. Entries untouched
 * since are deleted for good; entries changed since go to Trash.
 */
export async function undoImport(batchId: string, vaultState?: string): Promise<UndoEntryBatchResult> {
  const answer = await apiRequest(apiPaths.entryBatchUndo(batchId), {
    method: 'DELETE',
    schema: undoEntryBatchResponseSchema,
    protectedCall: true,
    headers: vaultStateHeaders(vaultState),
  });
  return answer.data;
}
