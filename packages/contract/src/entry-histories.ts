import { z } from 'zod';
import { entryIdSchema, entryVersionSchema } from './entries';

/**
 * Many entries' histories in one call (decision 0041): the export reads every changed item's
 * earlier versions, and one request per item made a 10,000-item export wait on hundreds of
 * round trips. At most ENTRY_HISTORIES_MAX_IDS ids per call; the client sends more in turn.
 */
export const ENTRY_HISTORIES_MAX_IDS = 500;

// POST /api/entries/histories — a POST because 500 ids do not fit a URL; it changes nothing.
export const entryHistoriesRequestSchema = z.object({
  ids: z
    .array(entryIdSchema)
    .min(1, 'must hold at least one id')
    .max(ENTRY_HISTORIES_MAX_IDS, `must hold at most ${ENTRY_HISTORIES_MAX_IDS} ids`)
    .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, 'must not repeat an id'),
});
export type EntryHistoriesRequest = z.infer<typeof entryHistoriesRequestSchema>;

/**
 * One item per asked id that is an entry of the session's account (live or in Trash), in the
 * order asked, each with its versions newest first as the single history call gives them.
 * An id of no entry of the account is left out (as the single call answers "not found").
 */
export const entryHistoriesResponseSchema = z.object({
  message: z.string(),
  data: z.array(z.object({ id: z.string(), versions: z.array(entryVersionSchema) })),
});
export type EntryHistoriesAnswer = z.infer<typeof entryHistoriesResponseSchema>['data'];
