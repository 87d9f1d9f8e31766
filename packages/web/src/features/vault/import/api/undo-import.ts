import { apiPaths, TRASHED_AT_HEADER, undoEntryBatchResponseSchema, type UndoEntryBatchResult } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';
import { vaultStateHeaders } from '@lockit/client-core';

/**
 * DELETE /api/entries/batch/{batchId}: undoes every call of one import. Entries untouched
 * since are deleted for good; entries changed since go to Trash, since `trashedAt`.
 */
export async function undoImport(
  batchId: string,
  vaultState: string | undefined,
  trashedAt: number,
): Promise<UndoEntryBatchResult> {
  const answer = await apiRequest(apiPaths.entryBatchUndo(batchId), {
    method: 'DELETE',
    schema: undoEntryBatchResponseSchema,
    protectedCall: true,
    headers: { ...vaultStateHeaders(vaultState), [TRASHED_AT_HEADER]: String(trashedAt) },
  });
  return answer.data;
}
