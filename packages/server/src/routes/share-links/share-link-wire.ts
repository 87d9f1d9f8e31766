import type { ShareLink } from '@lockit/contract';
import type { ShareLinkSummary } from '../../db/repositories/share-links-repository';

/** Most live share links one account may hold: each is stored ciphertext anyone with the link may fetch. */
export const MAX_LIVE_SHARE_LINKS = 200;

/** A share link as its owner sees it: never the ciphertext or the key check. */
export function toShareLinkWire(row: ShareLinkSummary): ShareLink {
  return {
    id: row.id,
    createdAt: new Date(Number(row.created_at)).toISOString(),
    expiresAt: new Date(Number(row.expires_at)).toISOString(),
    maxOpenings: Number(row.max_openings),
    openingsLeft: Number(row.openings_left),
    deleteAfterOpening: Number(row.delete_after_opening) === 1,
    needsPassword: row.password_salt !== null,
    label: row.owner_label,
    file: row.file_size === null ? null : { size: Number(row.file_size), finished: row.file_finished_at !== null },
  };
}
