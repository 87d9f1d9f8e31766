import { z } from 'zod';
import { base64urlBytes, emailSchema } from './common';

/**
 * Invitations (SIGNUP_MODE=invite, decision 0044). The token is 32 random bytes the server
 * makes and shows once, in the link; it stores only a hash of it. An invitation works once,
 * until it expires, and may name the one e-mail address that can use it.
 */
export const inviteTokenSchema = base64urlBytes(32);

// POST /api/invites — an optional address to mail the link to (and the only one that may use it).
export const createInviteRequestSchema = z.object({ email: emailSchema.optional() });
export type CreateInviteRequest = z.infer<typeof createInviteRequestSchema>;

/** An open invitation as its maker sees it: never the token, which only the link ever held. */
export const inviteSchema = z.object({
  id: z.uuid(),
  email: z.string().nullable(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
});
export type Invite = z.infer<typeof inviteSchema>;

/** `url` is the only copy of the token: shown once, to copy; `mailed` says whether it also went by mail. */
export const createInviteResponseSchema = z.object({
  message: z.string(),
  data: inviteSchema.extend({ url: z.url({ protocol: /^https?$/ }), mailed: z.boolean() }),
});
export type CreatedInvite = z.infer<typeof createInviteResponseSchema>['data'];

// GET /api/invites — the caller's invitations not yet used, revoked or expired, newest first.
export const listInvitesResponseSchema = z.object({ message: z.string(), data: z.array(inviteSchema) });

// DELETE /api/invites/{id}
export const inviteIdSchema = z.uuid('must be an invitation id');
