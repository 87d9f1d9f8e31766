import { apiPaths } from '@lockit/contract';
import { anyResponse } from '@/lib/any-response';
import { apiRequest } from '@/lib/api-client';

/** DELETE /api/passwords/delete/{id}; the answer is not used (spec). */
export async function deleteEntry(id: string): Promise<void> {
  await apiRequest(apiPaths.deleteEntry(id), { method: 'DELETE', schema: anyResponse, protectedCall: true });
}
