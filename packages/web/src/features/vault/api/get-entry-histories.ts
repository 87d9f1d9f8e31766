import { apiPaths, ENTRY_HISTORIES_MAX_IDS, entryHistoriesResponseSchema, type EntryVersionWire } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

/** The server answered without the history of entries it was asked for. */
export class MissingHistoryError extends Error {
  constructor(readonly missing: number) {
    super(`The server did not send the history of ${missing} item(s).`);
  }
}

/**
 * POST /api/entries/histories: the earlier versions (still encrypted, newest first) of every
 * entry in `ids`, in calls of at most ENTRY_HISTORIES_MAX_IDS, by entry id.
 *
 * Security invariant: an id the server leaves out (it answers only for this account's
 * entries, and every id asked is one it listed) is a history withheld: the call fails with
 * MissingHistoryError rather than passing it off as an item never changed.
 */
export async function getEntryHistories(ids: readonly string[]): Promise<Map<string, EntryVersionWire[]>> {
  const histories = new Map<string, EntryVersionWire[]>();
  for (let start = 0; start < ids.length; start += ENTRY_HISTORIES_MAX_IDS) {
    const asked = ids.slice(start, start + ENTRY_HISTORIES_MAX_IDS);
    const answer = await apiRequest(apiPaths.entryHistories, {
      method: 'POST',
      body: { ids: asked },
      schema: entryHistoriesResponseSchema,
      protectedCall: true,
    });
    const byId = new Map(answer.data.map((item) => [item.id.toLowerCase(), item.versions]));
    let missing = 0;
    for (const id of asked) {
      const versions = byId.get(id.toLowerCase());
      if (versions === undefined) missing++;
      else histories.set(id, versions);
    }
    if (missing > 0) throw new MissingHistoryError(missing);
  }
  return histories;
}
