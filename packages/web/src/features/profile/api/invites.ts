import {
  apiPaths,
  createInviteResponseSchema,
  listInvitesResponseSchema,
  messageResponseSchema,
  type CreatedInvite,
  type CreateInviteRequest,
  type Invite,
} from '@lockit/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

const invitesQueryKey = ['invites'] as const;

/** GET /api/invites: the caller's open invitations (never their tokens). */
export async function listInvites(): Promise<Invite[]> {
  return (await apiRequest(apiPaths.invites, { method: 'GET', schema: listInvitesResponseSchema, protectedCall: true })).data;
}

/** POST /api/invites: the answer's link is the only copy of the token. */
export async function createInvite(body: CreateInviteRequest): Promise<{ message: string; invite: CreatedInvite }> {
  const answer = await apiRequest(apiPaths.invites, {
    method: 'POST',
    body,
    schema: createInviteResponseSchema,
    protectedCall: true,
  });
  return { message: answer.message, invite: answer.data };
}

/** DELETE /api/invites/{id}. */
export async function revokeInvite(id: string): Promise<void> {
  await apiRequest(apiPaths.invite(id), { method: 'DELETE', schema: messageResponseSchema, protectedCall: true });
}

export function useInvites(enabled: boolean) {
  return useQuery({ queryKey: invitesQueryKey, queryFn: listInvites, enabled });
}

export function useCreateInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInvite,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitesQueryKey }),
  });
}

export function useRevokeInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeInvite,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitesQueryKey }),
  });
}
