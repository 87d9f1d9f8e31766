import { apiPaths, messageResponseSchema } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';
import { vaultStateHeaders } from '../integrity/vault-state-api';
import { withRevision } from './with-revision';

/**
 * DELETE /api/folders/{id}?revision=N. Entries keep naming the folder inside their overview;
 * the web app shows an entry whose folder is gone as in no folder.
 */
export async function deleteFolder(id: string, revision: number, vaultState?: string): Promise<void> {
  await apiRequest(withRevision(apiPaths.folder(id), revision), {
    method: 'DELETE',
    schema: messageResponseSchema,
    protectedCall: true,
    headers: vaultStateHeaders(vaultState),
  });
}
