import { apiPaths, undoEntryBatchResponseSchema, type UndoEntryBatchResult } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

/**
 * DELETE /api/entries/batch/{batchId}: undoes every call of one import. Entries untouched
 * since are deleted for good; entries changed since go to Trash.
 */
export async function undoImport(batchId: string): Promise<UndoEntryBatchResult> {
  const answer = await apiRequest(apiPaths.entryBatchUndo(batchId), {
    method: 'DELETE',
    schema: undoEntryBatchResponseSchema,
    protectedCall: true,
  });
  return answer.data;
}
