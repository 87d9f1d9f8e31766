import { z } from 'zod';
import { entryIdSchema, type EntryWire } from '@lockit/contract';
import type { StoredEntry } from '../../db/repositories/entries-repository';
import { parseInput } from '../../http/parse-body';

/** The stored row as the API sends it: ciphertexts as stored, times as ISO strings. */
export function toEntryWire(row: StoredEntry): EntryWire {
  return {
    id: row.id,
    serviceName: row.service_name,
    username: row.username,
    password: row.password,
    url: row.url,
    notes: row.notes,
    revision: row.revision,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

const idParams = z.object({ id: entryIdSchema });

/**
 * The entry id from the path, lower-cased: the client binds ciphertexts to the lower-case
 * id, so ids are stored and compared that way.
 */
export function entryIdFromParams(params: unknown): string {
  return parseInput(idParams, params).id.toLowerCase();
}
