import type { AppContext } from '../app-context';
import type { Tombstone } from '../db/repositories/change-log-repository';
import type { StoredEntry } from '../db/repositories/entries-repository';
import type { StoredFolder } from '../db/repositories/folders-repository';
import { HttpError, SIGN_IN_REQUIRED } from '../http/http-error';

/** Reads tried before one is sent even though a write landed while it was read. */
const CHANGES_SNAPSHOT_TRIES = 3;

export type ChangesSince =
  | { reset: true; cursor: number; reason: 'behind-floor' | 'unknown-cursor' }
  | {
      reset: false;
      cursor: number;
      vaultState: string | null;
      entries: StoredEntry[];
      folders: StoredFolder[];
      purgedEntries: Tombstone[];
      purgedFolders: Tombstone[];
    };

/**
 * What changed in the vault after cursor `since` (decision 0066), or a reset when that cursor
 * cannot be answered in full: below the floor (tombstones pruned since, or a key rotation
 * changed every ciphertext) or above the vault's cursor (not one this server gave). `since` 0
 * is a full read: every entry and folder, no tombstones.
 *
 * Like the list (vault-list-snapshot.ts), the rows are read one statement at a time, between
 * two reads of the cursor: the same cursor both times means no write committed in between, so
 * the rows, the tombstones and the state are the vault at that cursor. Otherwise it is read
 * again, up to CHANGES_SNAPSHOT_TRIES times, and the last is sent as read (the client checks
 * it against the state and asks again on a mismatch).
 */
export async function readChangesSince(ctx: Pick<AppContext, 'repos'>, userId: string, since: number): Promise<ChangesSince> {
  const log = ctx.repos.changes;
  for (let attempt = 1; ; attempt += 1) {
    const before = await log.position(userId);
    if (!before) throw new HttpError(401, SIGN_IN_REQUIRED);
    if (since > before.cursor) return { reset: true, cursor: before.cursor, reason: 'unknown-cursor' };
    if (since > 0 && since < before.floor) return { reset: true, cursor: before.cursor, reason: 'behind-floor' };
    const entries = await log.entriesSince(userId, since);
    const folders = await log.foldersSince(userId, since);
    const tombstones = since > 0 ? await log.tombstonesSince(userId, since) : { entries: [], folders: [] };
    const after = await log.position(userId);
    if (attempt >= CHANGES_SNAPSHOT_TRIES || after?.cursor === before.cursor) {
      return {
        reset: false,
        cursor: before.cursor,
        vaultState: before.vaultState,
        entries,
        folders,
        purgedEntries: tombstones.entries,
        purgedFolders: tombstones.folders,
      };
    }
  }
}
