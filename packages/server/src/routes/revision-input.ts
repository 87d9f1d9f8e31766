import { HttpError } from '../http/http-error';

/** The largest revision the `revision` columns hold (PostgreSQL's integer). */
export const MAX_REVISION = 2_147_483_647;

/**
 * The revision a write is based on, as the client sent it, checked against what the columns
 * hold: a larger one matches no row, and PostgreSQL refuses to compare it with an integer
 * column at all, so it is a 400 here, never a database error.
 */
export function storableRevision(revision: number): number {
  if (revision > MAX_REVISION) throw new HttpError(400, `revision must be at most ${MAX_REVISION}`);
  return revision;
}
