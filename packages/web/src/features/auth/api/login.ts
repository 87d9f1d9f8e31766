import { apiPaths, loginResponseSchema, unverifiedResponseSchema, type LoginRequest, type LoginResponse } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';
import { ApiError } from '@/lib/api-errors';

/** POST /api/users/login; `password` carries authKey, never the master password. */
export async function login(body: LoginRequest): Promise<LoginResponse> {
  return apiRequest(apiPaths.login, { method: 'POST', body, schema: loginResponseSchema });
}

export interface UnverifiedAccount {
  username: string;
  email: string;
}

/** The account behind a 403 "verify your email first" answer, if that is what `error` is. */
export function unverifiedAccountOf(error: unknown): UnverifiedAccount | null {
  if (!(error instanceof ApiError) || error.status !== 403) return null;
  const parsed = unverifiedResponseSchema.safeParse(error.body);
  return parsed.success ? { username: parsed.data.data.username, email: parsed.data.data.email } : null;
}
