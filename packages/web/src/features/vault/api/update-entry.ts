import { apiPaths, entryResponseSchema, type EntryWire, type UpdateEntryRequest } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

/**
 * PUT /api/passwords/update-password/{id}: the full entry, freshly encrypted. With `revision`
 * the server refuses (409) an update of an entry changed meanwhile, e.g. in another tab.
 */
export async function updateEntry(id: string, body: UpdateEntryRequest): Promise<EntryWire> {
  const answer = await apiRequest(apiPaths.updateEntry(id), {
    method: 'PUT',
    body,
    schema: entryResponseSchema,
    protectedCall: true,
  });
  return answer.data;
}
