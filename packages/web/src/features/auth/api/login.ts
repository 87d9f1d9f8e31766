import {
  apiPaths,
  loginResponseSchema,
  secondFactorRequiredSchema,
  unverifiedResponseSchema,
  type LoginRequest,
} from '@lockit/contract';
import { z } from 'zod';
import { apiRequest } from '@/lib/api-client';
import { ApiError } from '@/lib/api-errors';

/** The spec's answer, or "a second factor is required": no session yet, no wrapped key. */
const loginAnswerSchema = z.union([loginResponseSchema, secondFactorRequiredSchema]);
export type LoginAnswer = z.infer<typeof loginAnswerSchema>;
export type SecondFactorRequiredAnswer = z.infer<typeof secondFactorRequiredSchema>;

/** POST /api/users/login; `password` carries authKey, never the master password. */
export async function login(body: LoginRequest): Promise<LoginAnswer> {
  return apiRequest(apiPaths.login, { method: 'POST', body, schema: loginAnswerSchema });
}

export function needsSecondFactor(answer: LoginAnswer): answer is SecondFactorRequiredAnswer {
  return 'secondFactor' in answer.data;
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
