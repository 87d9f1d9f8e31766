import { z } from 'zod';

/** Entries kept, newest first: enough to find a password whose save failed days ago. */
export const HISTORY_LIMIT = 200;
/** A passphrase of 20 long words with separators stays well under this. */
const VALUE_LIMIT = 400;
const ITEM_NAME_LIMIT = 300;

export const generatorHistoryEntrySchema = z.strictObject({
  value: z.string().min(1).max(VALUE_LIMIT),
  /** When it was used or copied (ISO time). */
  at: z.iso.datetime(),
  /** The item it was generated for, when known (the Add/Edit dialog's name field). */
  item: z.string().max(ITEM_NAME_LIMIT).optional(),
});
export type GeneratorHistoryEntry = z.infer<typeof generatorHistoryEntrySchema>;

/** The 'generator-history' account document. */
export const generatorHistorySchema = z.strictObject({
  v: z.literal(1),
  entries: z.array(generatorHistoryEntrySchema).max(HISTORY_LIMIT),
});
export type GeneratorHistory = z.infer<typeof generatorHistorySchema>;

export const EMPTY_GENERATOR_HISTORY: GeneratorHistory = { v: 1, entries: [] };

/**
 * The history with `entry` first. The same value used again (copied, then used in the dialog)
 * moves to the top instead of appearing twice, keeping the item name it had if this use
 * names none. Past HISTORY_LIMIT the oldest go. `replacing`: a value this one takes the place
 * of (the Add/Edit dialog's field held it until a new one was generated), which goes.
 */
export function withGenerated(history: GeneratorHistory, entry: GeneratorHistoryEntry, replacing?: string): GeneratorHistory {
  const earlier = history.entries.find((old) => old.value === entry.value);
  const item = (entry.item?.trim() || earlier?.item)?.slice(0, ITEM_NAME_LIMIT);
  const first: GeneratorHistoryEntry = { value: entry.value.slice(0, VALUE_LIMIT), at: entry.at, ...(item ? { item } : {}) };
  const rest = history.entries.filter((old) => old.value !== entry.value && old.value !== replacing);
  return { v: 1, entries: [first, ...rest].slice(0, HISTORY_LIMIT) };
}
