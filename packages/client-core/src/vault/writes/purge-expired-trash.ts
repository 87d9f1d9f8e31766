import { TRASH_RETENTION_FLOOR_DAYS } from '@lockit/contract';
import type { ApiClient } from '../../http/api-client';
import { SILENT_LOG, type CoreLog } from '../../platform/core-log';
import type { VaultIntegrity } from '../integrity/vault-integrity';
import { vaultStateHeaders } from '../integrity/vault-state-answers';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The Trash term a device keeps: the server's, never below the floor (a server cannot shorten it). */
export function trashRetentionDays(served: number | null): number {
  return Math.max(served ?? TRASH_RETENTION_FLOOR_DAYS, TRASH_RETENTION_FLOOR_DAYS);
}

export interface PurgeExpiredPlatform {
  api: ApiClient;
  integrity: VaultIntegrity;
  /** The server's `trashRetentionDays` (GET /api/config), or null when it cannot be asked. */
  servedRetentionDays?: () => Promise<number | null>;
  log?: CoreLog;
}

/**
 * Deletes for good what has been in Trash longer than the retention term, after a passed check
 * (decision 0061): the server cannot update a state it cannot seal, so it no longer purges a
 * vault with one, and the client does, each purge a write that carries the next state.
 *
 * Security invariants:
 * - Only entries whose trash time is older than the term by the vault's last passed check are
 *   purged; under a version 2 state that time is the one a device sealed, so a server cannot
 *   make an entry look old enough to be purged early.
 * - The term is the longer of the server's `trashRetentionDays` and TRASH_RETENTION_FLOOR_DAYS;
 *   the server is asked only when something is older than the floor, and a failed answer keeps
 *   the floor.
 *
 * Never rejects; `removed` is told each id purged. Stops at the first refusal (another device
 * changed the vault, or the check failed since): the next load tries again.
 */
export async function purgeExpiredTrash(
  platform: PurgeExpiredPlatform,
  removed: (id: string) => void,
  now: number = Date.now(),
): Promise<number> {
  const { api, integrity } = platform;
  const log = platform.log ?? SILENT_LOG;
  if (integrity.trashedBefore(now - TRASH_RETENTION_FLOOR_DAYS * DAY_MS).length === 0) return 0;
  const asked = platform.servedRetentionDays ?? (async () => (await api.call('public-config', {})).data.trashRetentionDays);
  const served = await asked().then(
    (days) => days ?? null,
    () => null,
  );
  const expired = integrity.trashedBefore(now - trashRetentionDays(served) * DAY_MS);
  let purged = 0;
  for (const { id, revision } of expired) {
    try {
      await integrity.write(
        () => ({ purgeEntries: [id] }),
        (state) => api.call('purge-entry', { params: { id }, query: { revision }, headers: vaultStateHeaders(state) }),
      );
    } catch (error) {
      log.failure('Emptying Trash after its retention', error);
      break;
    }
    removed(id);
    purged += 1;
  }
  if (purged > 0) log.info('Vault', `${purged} item(s) kept in Trash past the retention were deleted for good.`);
  return purged;
}
