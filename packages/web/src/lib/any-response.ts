import type { Contract, ResponseSchema } from './contract';

/**
 * For calls whose answer the spec does not use ("result not used", "success is status
 * 200"): any 2xx counts as success, whatever its body, and the server's message is kept
 * when there is one. Never used where the app reads data from the answer. A function of the
 * contract, so the app shell can use it without loading zod first (see contract.ts).
 */
export function anyResponse(contract: Contract): ResponseSchema<{ message: string | undefined }> {
  return {
    safeParse(data: unknown) {
      const parsed = contract.messageResponseSchema.safeParse(data);
      return { success: true, data: { message: parsed.success ? parsed.data.message : undefined } };
    },
  };
}
