import { z } from 'zod';
import { entrySchema } from './entries';
import { folderSchema } from './folders';
import { vaultStateSchema } from './vault-state';

/**
 * The change cursor (decision 0066). Every write of a vault advances the account's change
 * sequence by one, in its own transaction; the cursor is a value of that sequence. Asked "what
 * changed after N", the server answers the entries and folders written since (the same wire
 * form as their lists), the ids deleted for good since with their last revision (tombstones),
 * the vault state stored with that vault and the cursor it is at. The client applies them to
 * what it holds and checks the result against the state, as it checks a full list.
 */

/** The highest cursor accepted: far beyond any real count of changes. */
export const MAX_CHANGE_CURSOR = 1_000_000_000_000;

// GET /api/vault/changes?since=N (0: everything, as a full read). Digits only: `Number('')` is 0,
// which would turn an empty cursor into a full read instead of a refusal.
export const vaultChangesQuerySchema = z.object({
  since: z
    .string('is required: the change cursor (0 for everything)')
    .regex(/^(0|[1-9]\d{0,12})$/, 'must be a change cursor: a whole number, 0 or more')
    .transform(Number)
    .refine((value) => value <= MAX_CHANGE_CURSOR, 'is not a change cursor'),
});

/** One entry or folder deleted for good: its id and the revision it had. */
export const tombstoneSchema = z.object({ id: z.string(), revision: z.number().int() });
export type TombstoneWire = z.infer<typeof tombstoneSchema>;

/**
 * The list answer's change cursor (GET /api/passwords/show/user-passwords): every change up to it
 * is in the list, and later ones may be too (a catch-up from it serves them again, harmlessly).
 * A client that checked the list seeds its mirror with it and asks only what changed after.
 */
export const CHANGE_CURSOR_HEADER = 'x-lockit-change-cursor';

/** The header's cursor, or null when it is absent or not a cursor (the client then reads from 0). */
export function parseChangeCursor(value: string | null | undefined): number | null {
  const parsed = vaultChangesQuerySchema.shape.since.safeParse(value ?? '');
  return parsed.success ? parsed.data : null;
}

/** The changes after a cursor the server can still answer in full. */
const changedSchema = z.object({
  reset: z.literal(false),
  /** The cursor this answer brings the client to. */
  cursor: z.number().int().min(0),
  /** The vault state stored with the vault at `cursor` (null: none yet). */
  vaultState: vaultStateSchema.nullable(),
  entries: z.array(entrySchema),
  folders: z.array(folderSchema),
  purgedEntries: z.array(tombstoneSchema),
  purgedFolders: z.array(tombstoneSchema),
});

/**
 * A cursor the server cannot answer in full: `behind-floor`, older than the tombstones it keeps
 * or from before a key rotation (every ciphertext changed); `unknown-cursor`, ahead of the
 * vault. The client reads the vault whole again (cursor 0) and checks it as any full read.
 */
const resetSchema = z.object({
  reset: z.literal(true),
  /** The vault's cursor now. */
  cursor: z.number().int().min(0),
  reason: z.enum(['behind-floor', 'unknown-cursor']),
});

export const vaultChangesSchema = z.discriminatedUnion('reset', [changedSchema, resetSchema]);
export type VaultChangesWire = z.infer<typeof vaultChangesSchema>;
export const vaultChangesResponseSchema = z.object({ message: z.string(), data: vaultChangesSchema });

/**
 * One notice of GET /api/vault/events (an SSE `change` event's data): the change sequence a
 * write committed at and, when it touched exactly one entry or folder, that id. Nothing
 * secret: ids are the client's UUIDs, which every URL of the API already carries.
 * `reset`: every ciphertext changed (a key rotation): the client reads the vault whole.
 */
export const changeNoticeSchema = z.object({
  seq: z.number().int().min(0),
  id: z.string().max(100).optional(),
  reset: z.literal(true).optional(),
});
export type ChangeNotice = z.infer<typeof changeNoticeSchema>;

/** The SSE event names of GET /api/vault/events. */
export const VAULT_EVENT = {
  /** A committed change (data: a ChangeNotice). */
  change: 'change',
  /** The first event of a stream: the cursor the vault was at when it opened (data: `{ seq }`). */
  ready: 'ready',
  /**
   * The stream ends (data: `{ reason }`): `signed-out` (the session ended; do not reconnect
   * until signed in again), `unavailable` (the server lost its notice bus: catch up with the
   * cursor and reconnect later), `closing` (the server is shutting down).
   */
  end: 'end',
} as const;

export const streamEndSchema = z.object({ reason: z.enum(['signed-out', 'unavailable', 'closing']) });
export type StreamEnd = z.infer<typeof streamEndSchema>;
