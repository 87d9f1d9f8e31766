import type { ApiClient } from '../http/api-client';
import { openEntryHistory } from '../vault/writes/entry-history';

/**
 * Ids of the files that the earlier versions of entry `entryId` list (decision 0084): a file
 * the item no longer lists but one of these does is kept for that version, not a stranger.
 * A version that does not open lists nothing here.
 */
export async function filesInHistory(api: ApiClient, vaultKey: CryptoKey, entryId: string): Promise<Set<string>> {
  const versions = await openEntryHistory(api, vaultKey, entryId);
  const ids = new Set<string>();
  for (const version of versions) for (const file of version.draft?.files ?? []) ids.add(file.id.toLowerCase());
  return ids;
}
