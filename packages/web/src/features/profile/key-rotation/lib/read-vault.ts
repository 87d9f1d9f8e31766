import {
  ACCOUNT_DOCUMENT_KINDS,
  apiPaths,
  ENTRY_HISTORIES_MAX_IDS,
  entryHistoriesResponseSchema,
  entrySchema,
  listFoldersResponseSchema,
  parseVaultState,
  type EntryVersionWire,
  type EntryWire,
  type VaultStateParts,
} from '@lockit/contract';
import { getAccountDocument } from '@/api/account-documents';
import { listEntries } from '@/api/list-entries';
import { apiRequest } from '@/lib/api-client';
import { getVaultState } from '../api/get-vault-state';
import type { ResealUnit } from './reseal';

/** Everything a rotation re-encrypts, as the server served it, and the vault revision it was read at. */
export interface VaultSnapshot {
  vaultRevision: number;
  /** The integrity state the server holds (null: none yet). */
  state: VaultStateParts | null;
  /** Entries (each with its history), folders and account documents. */
  units: ResealUnit[];
  /** Entries the server sent that are not entries at all (no usable id or fields): damaged. */
  malformed: number;
}

/** Calls of the histories route in flight at once. */
const HISTORY_CALLS = 3;

/** The server answered without the history of entries it was asked for. */
export class MissingHistoryError extends Error {}

/**
 * Reads the whole vault: live entries and Trash, every earlier version, folders, account
 * documents. The vault revision is read FIRST: any write after it moves the server's revision
 * on, so the start (which must name the current revision) refuses a rotation built on a copy
 * older than the vault, and nothing written meanwhile can be lost.
 */
export async function readVault(): Promise<VaultSnapshot> {
  const { state, vaultRevision } = await getVaultState();
  const [raw, folders, documents] = await Promise.all([
    listEntries(),
    apiRequest(apiPaths.folders, { method: 'GET', schema: listFoldersResponseSchema, protectedCall: true }),
    Promise.all(ACCOUNT_DOCUMENT_KINDS.map((kind) => getAccountDocument(kind))),
  ]);
  const entries: EntryWire[] = [];
  for (const item of raw) {
    const parsed = entrySchema.safeParse(item);
    if (parsed.success) entries.push(parsed.data);
  }
  const histories = await readHistories(entries.map((entry) => entry.id));
  const units: ResealUnit[] = [
    ...entries.map((entry): ResealUnit => ({ type: 'entry', entry, versions: histories.get(entry.id) ?? [] })),
    ...folders.data.map((folder): ResealUnit => ({ type: 'folder', folder })),
    // Each under the kind it was asked for: its binding to that kind is checked as it opens.
    ...documents.flatMap((document, i): ResealUnit[] =>
      document === null ? [] : [{ type: 'document', kind: ACCOUNT_DOCUMENT_KINDS[i]!, ciphertext: document.ciphertext }],
    ),
  ];
  return {
    vaultRevision,
    state: state === null ? null : parseVaultState(state),
    units,
    malformed: raw.length - entries.length,
  };
}

/**
 * Every entry's earlier versions, in calls of ENTRY_HISTORIES_MAX_IDS ids. An entry the server
 * leaves out is a history withheld: MissingHistoryError, not an entry never changed (its
 * versions would stay under the old key, and the commit would refuse the incomplete set).
 */
async function readHistories(ids: readonly string[]): Promise<Map<string, EntryVersionWire[]>> {
  const batches: string[][] = [];
  for (let start = 0; start < ids.length; start += ENTRY_HISTORIES_MAX_IDS) {
    batches.push(ids.slice(start, start + ENTRY_HISTORIES_MAX_IDS));
  }
  const histories = new Map<string, EntryVersionWire[]>();
  let next = 0;
  const caller = async () => {
    while (next < batches.length) {
      const asked = batches[next++]!;
      const answer = await apiRequest(apiPaths.entryHistories, {
        method: 'POST',
        body: { ids: asked },
        schema: entryHistoriesResponseSchema,
        protectedCall: true,
      });
      const byId = new Map(answer.data.map((item) => [item.id.toLowerCase(), item.versions]));
      for (const id of asked) {
        const versions = byId.get(id.toLowerCase());
        if (versions === undefined) throw new MissingHistoryError();
        histories.set(id, versions);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(HISTORY_CALLS, batches.length) }, caller));
  return histories;
}
