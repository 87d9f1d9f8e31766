import { apiPaths } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';
import type { ResponseSchema } from '@/lib/contract';

/**
 * Only the envelope is checked here; each entry is checked against the contract's
 * entrySchema while it is decrypted (lib/open-entries.ts), so one malformed entry shows as
 * damaged instead of hiding the whole vault, and 10,000 entries are not validated in one
 * long task.
 */
const listEnvelopeSchema: ResponseSchema<{ message: string; data: unknown[] }> = {
  safeParse(body: unknown) {
    if (typeof body !== 'object' || body === null) return { success: false };
    const { message, data } = body as Record<string, unknown>;
    if (typeof message !== 'string' || !Array.isArray(data)) return { success: false };
    return { success: true, data: { message, data: data as unknown[] } };
  },
};

/** GET /api/passwords/show/user-passwords: every entry of the session's account, oldest first. */
export async function listEntries(): Promise<unknown[]> {
  const answer = await apiRequest(apiPaths.listEntries, { method: 'GET', schema: listEnvelopeSchema, protectedCall: true });
  return answer.data;
}
