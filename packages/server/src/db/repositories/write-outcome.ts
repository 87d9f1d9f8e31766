/**
 * What a compare-and-swap write did. The write is one statement that applies only while the
 * row is at the revision the client based its change on (and, for Trash moves, in the state
 * the operation needs); when it applies nothing, a read in the same transaction says why.
 *
 * - `not-found`: no such row for this user (another account's row is the same as none);
 * - `revision-mismatch`: someone wrote it since the client read it;
 * - `wrong-state`: at that revision, but live where Trash is needed or the other way round.
 */
export type WriteOutcome<Done extends string> = Done | 'not-found' | 'revision-mismatch' | 'wrong-state';

/** Why a compare-and-swap on `current` (read after it failed) did not apply. */
export function whyNotWritten(current: { revision: number } | undefined, expectedRevision: number): WriteOutcome<never> {
  if (!current) return 'not-found';
  return current.revision === expectedRevision ? 'wrong-state' : 'revision-mismatch';
}
