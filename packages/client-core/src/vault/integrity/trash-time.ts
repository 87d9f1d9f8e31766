/**
 * The trash time of a served `deletedAt`, in whole milliseconds, as sealed into a trashed
 * entry's integrity element (decision 0061); only from the ISO text the server writes
 * (toISOString), so one instant has one text. Anything else is null: such an entry cannot
 * match any state a browser sealed.
 */
export function trashTimeOf(deletedAt: string): number | null {
  const at = Date.parse(deletedAt);
  return Number.isSafeInteger(at) && at >= 0 && new Date(at).toISOString() === deletedAt ? at : null;
}
