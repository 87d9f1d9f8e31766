import { entryConflictResponseSchema, folderResponseSchema, type EntryWire, type FolderWire } from '@lockit/contract';
import { ApiError } from '../../http/api-errors';

/**
 * The current entry a 409 answer carries (a write based on an old revision), or null when
 * `error` is no such answer. The entry is still wire data: it is opened (and checked) like
 * any other before anything of it is shown.
 */
export function entryConflictOf(error: unknown): EntryWire | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const parsed = entryConflictResponseSchema.safeParse(error.body);
  return parsed.success ? parsed.data.data : null;
}

/** The current folder a 409 answer to a folder write carries, or null. */
export function folderConflictOf(error: unknown): FolderWire | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const parsed = folderResponseSchema.safeParse(error.body);
  return parsed.success ? parsed.data.data : null;
}

/** A 404: what the write names is no longer on the server. */
export const isGone = (error: unknown): error is ApiError => error instanceof ApiError && error.status === 404;
