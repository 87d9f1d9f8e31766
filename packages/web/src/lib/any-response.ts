import { messageResponseSchema } from '@lockit/contract';
import type { ResponseSchema } from './api-client';

/**
 * For calls whose answer the spec does not use ("result not used", "success is status
 * 200"): any 2xx counts as success, whatever its body, and the server's message is kept
 * when there is one. Never used where the app reads data from the answer.
 */
export const anyResponse: ResponseSchema<{ message: string | undefined }> = {
  safeParse(data: unknown) {
    const parsed = messageResponseSchema.safeParse(data);
    return { success: true, data: { message: parsed.success ? parsed.data.message : undefined } };
  },
};
