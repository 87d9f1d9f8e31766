import { adminPaths, adminUsersResponseSchema, type AdminUser } from '@lockit/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export const adminUsersKey = ['admin', 'users'] as const;

/** GET /api/admin/users: every account with counts and sizes (never vault content). */
export async function listUsers(): Promise<AdminUser[]> {
  return (await apiRequest(adminPaths.users, { method: 'GET', schema: adminUsersResponseSchema })).data.users;
}

export function useAdminUsers() {
  return useQuery({ queryKey: adminUsersKey, queryFn: listUsers, retry: false });
}
