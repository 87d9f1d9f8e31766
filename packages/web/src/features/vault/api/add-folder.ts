import { apiPaths, folderResponseSchema, type FolderWire } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';
import { vaultStateHeaders } from '../integrity/vault-state-api';

/** POST /api/folders: a folder under an id the client made, its name a ciphertext bound to that id. */
export async function addFolder(body: { id: string; name: string }, vaultState?: string): Promise<FolderWire> {
  const answer = await apiRequest(apiPaths.folders, {
    method: 'POST',
    body,
    schema: folderResponseSchema,
    protectedCall: true,
    headers: vaultStateHeaders(vaultState),
  });
  return answer.data;
}
