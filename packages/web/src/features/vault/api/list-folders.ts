import { apiPaths, listFoldersResponseSchema, type FolderWire } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

/** GET /api/folders: the account's folders, names still encrypted. */
export async function listFolders(): Promise<FolderWire[]> {
  const answer = await apiRequest(apiPaths.folders, { method: 'GET', schema: listFoldersResponseSchema, protectedCall: true });
  return answer.data;
}
