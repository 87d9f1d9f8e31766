import { ENTRY_HISTORIES_MAX_IDS, type EntryVersionWire } from '@lockit/contract';
import type { ApiClient } from '../../http/api-client';
import { openVersionDraft } from '../open-draft';
import type { EntryDraft } from '../vault-entry';

/** One earlier version of an entry, opened; `draft` is null when it does not decrypt. */
export interface OpenVersion {
  revision: number;
  /** When this version was saved, and when a later write replaced it. */
  savedAt: string;
  replacedAt: string;
  draft: EntryDraft | null;
}

/** An entry's earlier versions, still encrypted, newest first. */
export async function fetchEntryHistory(api: ApiClient, id: string): Promise<EntryVersionWire[]> {
  return (await api.call('entry-history', { params: { id } })).data;
}

/**
 * An entry's earlier versions, newest first, each opened under the vault key and bound to the
 * entry's id: a version moved from another entry, or changed, opens as null (shown as damaged,
 * never as data).
 */
export async function openEntryHistory(api: ApiClient, vaultKey: CryptoKey, id: string): Promise<OpenVersion[]> {
  const versions = await fetchEntryHistory(api, id);
  return Promise.all(
    versions.map(async (version) => ({
      revision: version.revision,
      savedAt: version.savedAt,
      replacedAt: version.replacedAt,
      draft: await openVersionDraft(vaultKey, id, version).catch(() => null),
    })),
  );
}

/** The server answered without the history of entries it was asked for. */
export class MissingHistoryError extends Error {
  constructor(readonly missing: number) {
    super(`The server did not send the history of ${missing} item(s).`);
  }
}

/**
 * The earlier versions (still encrypted, newest first) of every entry in `ids`, in calls of at
 * most ENTRY_HISTORIES_MAX_IDS, by entry id.
 *
 * Security invariant: an id the server leaves out (it answers only for this account's
 * entries, and every id asked is one it listed) is a history withheld: the call fails with
 * MissingHistoryError rather than passing it off as an item never changed.
 */
export async function fetchEntryHistories(api: ApiClient, ids: readonly string[]): Promise<Map<string, EntryVersionWire[]>> {
  const histories = new Map<string, EntryVersionWire[]>();
  for (let start = 0; start < ids.length; start += ENTRY_HISTORIES_MAX_IDS) {
    const asked = ids.slice(start, start + ENTRY_HISTORIES_MAX_IDS);
    const answer = await api.call('entry-histories', { body: { ids: asked } });
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
