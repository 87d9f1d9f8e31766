import type { Invite } from '@lockit/contract';
import type { InviteRow } from '../../db/repositories/invites-repository';

/** An invitation as its maker sees it: never the token or its hash. */
export function toInviteWire(row: Pick<InviteRow, 'id' | 'email' | 'created_at' | 'expires_at'>): Invite {
  return {
    id: row.id,
    email: row.email,
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: new Date(row.expires_at).toISOString(),
  };
}
