import { apiPaths, twoFactorStatusResponseSchema, type TwoFactorStatus } from '@lockit/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export const twoFactorQueryKey = ['two-factor'] as const;

/** GET /api/user/two-factor: the account's factors, its security keys and passkeys among them. */
export async function getTwoFactorStatus(): Promise<TwoFactorStatus> {
  return (await apiRequest(apiPaths.twoFactor, { method: 'GET', schema: twoFactorStatusResponseSchema, protectedCall: true }))
    .data;
}

export function useTwoFactorStatus() {
  return useQuery({ queryKey: twoFactorQueryKey, queryFn: getTwoFactorStatus });
}
