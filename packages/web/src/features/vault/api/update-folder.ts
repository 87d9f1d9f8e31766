import { apiPaths, folderResponseSchema, type FolderWire } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

/** PUT /api/folders/{id}: a new name; a stale revision is a 409 with the current folder (folderConflictOf). */
export async function updateFolder(id: string, body: { name: string; revision: number }): Promise<FolderWire> {
  const answer = await apiRequest(apiPaths.folder(id), {
    method: 'PUT',
    body,
    schema: folderResponseSchema,
    protectedCall: true,
  });
  return answer.data;
}
