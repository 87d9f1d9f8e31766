import { apiPaths, folderResponseSchema, type FolderWire } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';
import { vaultStateHeaders } from '../integrity/vault-state-api';

/** PUT /api/folders/{id}: a new name; a stale revision is a 409 with the current folder (folderConflictOf). */
export async function updateFolder(
  id: string,
  body: { name: string; revision: number },
  vaultState?: string,
): Promise<FolderWire> {
  const answer = await apiRequest(apiPaths.folder(id), {
    method: 'PUT',
    body,
    schema: folderResponseSchema,
    protectedCall: true,
    headers: vaultStateHeaders(vaultState),
  });
  return answer.data;
}
