import { type EntryVersionWire, type EntryWire } from '@lockit/contract';
import type { StoredEntry } from '../../db/repositories/entries-repository';
import type { StoredEntryVersion } from '../../db/repositories/entry-history-repository';
import { HttpError } from '../../http/http-error';
import type { EntryRefusal } from '../../vault/entry-writes';
import { MESSAGES } from '../messages';

const iso = (epochMs: number) => new Date(epochMs).toISOString();

/** The stored row as the API sends it: ciphertexts as stored, times as ISO strings. */
export function toEntryWire(row: StoredEntry): EntryWire {
  return {
    id: row.id,
    serviceName: row.service_name,
    username: row.username,
    password: row.password,
    url: row.url,
    notes: row.notes,
    overview: row.overview,
    details: row.details,
    revision: row.revision,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    deletedAt: row.deleted_at === null ? null : iso(row.deleted_at),
  };
}

/** One earlier version: its ciphertexts as they were, with when it was saved and replaced. */
export function toEntryVersionWire(row: StoredEntryVersion): EntryVersionWire {
  return {
    revision: row.revision,
    serviceName: row.service_name,
    username: row.username,
    password: row.password,
    url: row.url,
    notes: row.notes,
    overview: row.overview,
    details: row.details,
    savedAt: iso(row.saved_at),
    replacedAt: iso(row.replaced_at),
  };
}

/**
 * The answer to a refused write: 404 for no such entry (another account's included), else
 * 409 with the entry as it is now, so the client can show it beside the person's version.
 */
export function entryRefusalError(refusal: EntryRefusal, wrongStateMessage: string): HttpError {
  if (refusal.outcome === 'not-found') return new HttpError(404, MESSAGES.entryNotFound);
  const message = refusal.outcome === 'revision-mismatch' ? MESSAGES.entryChangedElsewhere : wrongStateMessage;
  return new HttpError(409, message, { data: toEntryWire(refusal.current) });
}
