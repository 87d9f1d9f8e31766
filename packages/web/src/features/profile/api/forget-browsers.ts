import { apiPaths, messageResponseSchema } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

/** POST /api/user/two-factor/forget-browsers: every remembered browser asks for a second step again. */
export async function forgetBrowsers(): Promise<string> {
  const answer = await apiRequest(apiPaths.forgetBrowsers, {
    method: 'POST',
    body: {},
    schema: messageResponseSchema,
    protectedCall: true,
  });
  return answer.message;
}
