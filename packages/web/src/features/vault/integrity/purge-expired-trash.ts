import { purgeExpiredTrash as purgeInCore, type VaultIntegrity } from '@lockit/client-core';
import { getPublicConfig } from '@/api/get-public-config';
import { api } from '@/lib/http';
import { coreLog } from '@/lib/log';

/**
 * The client core's purge of what outlived the Trash term (decision 0061), with this app's
 * client, its config call and its log. Never rejects; resolves with how many were purged.
 */
export function purgeExpiredTrash(integrity: VaultIntegrity, removed: (id: string) => void, now?: number): Promise<number> {
  const servedRetentionDays = async () => (await getPublicConfig()).trashRetentionDays;
  return purgeInCore({ api, integrity, servedRetentionDays, log: coreLog }, removed, now);
}
