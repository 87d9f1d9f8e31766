import { apiPaths, type SendCodeRequest } from '@lockit/contract';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { Contract, ResponseSchema } from '@/lib/contract';

export interface SentCode {
  /** The server's message, or a plain one when it sent none. */
  message: string;
  /** The delivery ticket to ask whether the mail went out (decision 0043); absent from older servers. */
  delivery: string | undefined;
}

/** Any 2xx is success (the spec shows no result shape); the message and ticket are kept when present. */
function sentCode(contract: Contract): ResponseSchema<SentCode> {
  return {
    safeParse(data: unknown) {
      const parsed = contract.sendCodeResponseSchema.safeParse(data);
      const message = contract.messageResponseSchema.safeParse(data);
      return {
        success: true,
        data: {
          message: (message.success ? message.data.message : undefined) ?? 'Verification code sent.',
          delivery: parsed.success ? parsed.data.data?.delivery : undefined,
        },
      };
    },
  };
}

/** POST /api/email/send-code: mails a 6-character code; resolves with the message and the delivery ticket. */
export async function sendCode(body: SendCodeRequest): Promise<SentCode> {
  return apiRequest(apiPaths.sendCode, { method: 'POST', body, schema: sentCode });
}

export function useSendCode() {
  return useMutation({ mutationFn: sendCode });
}
