import { z } from 'zod';
import { addEntryRequestSchema } from './entries';

/**
 * Import batches (decision 0036). An import sends its sealed entries in calls of at most
 * ENTRY_BATCH_MAX_ENTRIES entries (and at most ENTRY_BATCH_MAX_BYTES of body); each call lands
 * whole or not at all. Every call of one import names the same `batchId`, made by the client,
 * so the whole import can be undone in one step.
 */
export const ENTRY_BATCH_MAX_ENTRIES = 500;
/** Body cap of one batch call: 500 typical items take well under 2 MiB. */
export const ENTRY_BATCH_MAX_BYTES = 8 * 1024 * 1024;

export const importBatchIdSchema = z.uuid('must be a UUID');

// POST /api/entries/batch — each entry exactly like the single add's body.
export const entryBatchRequestSchema = z.object({
  batchId: importBatchIdSchema,
  entries: z
    .array(addEntryRequestSchema)
    .min(1, 'must hold at least one entry')
    .max(ENTRY_BATCH_MAX_ENTRIES, `must hold at most ${ENTRY_BATCH_MAX_ENTRIES} entries`),
});
export type EntryBatchRequest = z.infer<typeof entryBatchRequestSchema>;

export const entryBatchResponseSchema = z.object({
  message: z.string(),
  data: z.object({ batchId: z.string(), added: z.number().int() }),
});

// DELETE /api/entries/batch/{batchId} — undo: entries untouched since the import are deleted
// for good, entries changed since go to Trash.
export const undoEntryBatchResponseSchema = z.object({
  message: z.string(),
  data: z.object({ purged: z.number().int(), trashed: z.number().int() }),
});
export type UndoEntryBatchResult = z.infer<typeof undoEntryBatchResponseSchema>['data'];
