import { openShareLabel, sealShareLabel } from '@lockit/crypto';
import type { ApiClient } from '../../http/api-client';

/**
 * After a key rotation committed: each share link's owner label sealed again under the new vault
 * key, so the owner's list still says what each link shares. Best effort and after the commit on
 * purpose: a label is the owner's note, not vault data; one not moved shows as unreadable in the
 * list and its link still works and can be revoked. A label that does not open under the old key
 * (changed by the server) is left as it is, never sealed anew. Answers how many were moved.
 */
export async function resealShareLabels(api: ApiClient, oldKey: CryptoKey, newKey: CryptoKey): Promise<number> {
  const { data: links } = await api.call('list-share-links', {});
  let moved = 0;
  for (const link of links) {
    if (link.label === null) continue;
    const label = await openShareLabel(oldKey, link.id, link.label);
    if (label === null) continue;
    const sealed = await sealShareLabel(newKey, link.id, label);
    await api.call('relabel-share-link', { params: { id: link.id }, body: { label: sealed } });
    moved += 1;
  }
  return moved;
}
