import { adminInviteResponseSchema, adminPaths, type AdminInvite } from '@lockit/contract';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** POST /api/admin/invites: a sign-up link to copy (mailed too when an address is given and SMTP is set). */
export async function createInvite(email: string): Promise<AdminInvite> {
  const body = email.trim() === '' ? {} : { email: email.trim() };
  return (await apiRequest(adminPaths.invites, { method: 'POST', body, schema: adminInviteResponseSchema })).data;
}

export function useCreateInvite() {
  return useMutation({ mutationFn: createInvite });
}
