import { z } from 'zod';

/**
 * Whole-vault integrity (decisions 0053, 0061). The browser authenticates the set of the
 * vault's entries, live and in Trash, and folders (each one's id, revision and ciphertexts, a
 * trashed one's trash time too) with a key derived from the vault key, under a counter every
 * change of that set advances, and hands the server the result as one opaque string:
 *
 *   v2.<counter>.<entries>.<trashed>.<folders>.<sum>.<tag>
 *
 * counter and the counts (live entries, entries in Trash, folders) are decimal; sum (the sum of
 * every member's keyed element, mod 2^256) and tag (an HMAC over the rest) are 32 bytes of
 * base64url each. The server cannot make or change one: it only stores what the browser sent,
 * compares counters, and serves it back with the list. A version 1 state
 * (`v1.<counter>.<entries>.<folders>.<sum>.<tag>`, live set only) is what browsers wrote before
 * Trash was covered: it is still accepted, until the vault's next write replaces it by a v2 one.
 */
export const VAULT_STATE_VERSION = 'v2';

/**
 * The header a write that changes the live set (add, edit, trash, restore, folder add, rename
 * and delete, an import batch and its undo) carries with the state after the change, and the
 * header the list and folder answers carry with the state their body matches (absent: none yet).
 */
export const VAULT_STATE_HEADER = 'x-lockit-vault-state';

/** The highest counter accepted: far beyond any real count of changes. */
export const MAX_VAULT_STATE_COUNTER = 1_000_000_000_000;

const V1_PATTERN = /^v1\.(0|[1-9]\d{0,12})\.(0|[1-9]\d{0,6})\.(0|[1-9]\d{0,6})\.([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{43})$/;
const V2_PATTERN =
  /^v2\.(0|[1-9]\d{0,12})\.(0|[1-9]\d{0,6})\.(0|[1-9]\d{0,6})\.(0|[1-9]\d{0,6})\.([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{43})$/;

export interface VaultStateParts {
  counter: number;
  entries: number;
  /** Entries in Trash: present in a version 2 state only (a version 1 state does not cover Trash). */
  trashed?: number | undefined;
  folders: number;
  sum: string;
  tag: string;
}

/** The parts of a vault state string (v1 or v2), or null when it is not one (any other shape, or counter 0). */
export function parseVaultState(value: string): VaultStateParts | null {
  const v2 = V2_PATTERN.exec(value);
  const v1 = v2 ? null : V1_PATTERN.exec(value);
  const match = v2 ?? v1;
  if (!match) return null;
  const counter = Number(match[1]);
  if (counter < 1 || counter > MAX_VAULT_STATE_COUNTER) return null;
  if (v2) {
    const [entries, trashed, folders] = [Number(v2[2]), Number(v2[3]), Number(v2[4])];
    return { counter, entries, trashed, folders, sum: v2[5]!, tag: v2[6]! };
  }
  return { counter, entries: Number(match[2]), folders: Number(match[3]), sum: match[4]!, tag: match[5]! };
}

/** The state string: version 2 when the parts count Trash, else version 1. */
export function formatVaultState(parts: VaultStateParts): string {
  const { counter, entries, trashed, folders, sum, tag } = parts;
  if (trashed === undefined) return `v1.${counter}.${entries}.${folders}.${sum}.${tag}`;
  return `${VAULT_STATE_VERSION}.${counter}.${entries}.${trashed}.${folders}.${sum}.${tag}`;
}

/** Whether a state string is version 1 (Trash not covered): the server never takes one on top of a v2 state. */
export const isVersion1VaultState = (value: string): boolean => value.startsWith('v1.');

/**
 * The header a move to Trash (delete, an import's undo) carries with the time the browser put
 * the entry in Trash, in whole milliseconds since the epoch: it is sealed into the entry's
 * element, so the server stores it as the entry's `deletedAt`, exactly, and serves it back.
 */
export const TRASHED_AT_HEADER = 'x-lockit-trashed-at';

/** The largest trash time accepted: the last millisecond a JavaScript Date can hold. */
export const MAX_TRASHED_AT = 8_640_000_000_000_000;

/** The trash time of a header value, or null when it is not a whole number of milliseconds in range. */
export function parseTrashedAt(value: string): number | null {
  if (!/^(0|[1-9]\d{0,15})$/.test(value)) return null;
  const at = Number(value);
  return at <= MAX_TRASHED_AT ? at : null;
}

/**
 * The fewest days a browser keeps an entry in Trash before it deletes it for good, whatever
 * the server's `trashRetentionDays` says: a server that answers a shorter term cannot make the
 * browser purge sooner. A longer term the server answers is kept.
 */
export const TRASH_RETENTION_FLOOR_DAYS = 30;

export const vaultStateSchema = z
  .string('must be a vault state')
  .max(200, 'must be a vault state')
  // The message names the shape the spec's plain clients know; a v2 state passes too.
  .refine((value) => parseVaultState(value) !== null, 'must be a vault state: v1.<counter>.<entries>.<folders>.<sum>.<tag>');

/**
 * PUT /api/vault/state: the first state of a vault that has none (counter 1), made by the
 * browser from what it was served. Refused (409) once a state exists.
 */
export const initVaultStateRequestSchema = z.object({ state: vaultStateSchema });

/** GET /api/vault/state: the stored state (null: none yet) and the vault revision it belongs to. */
export const vaultStateResponseSchema = z.object({
  message: z.string(),
  data: z.object({ state: vaultStateSchema.nullable(), vaultRevision: z.number().int() }),
});

/**
 * The `code` of a 409 whose write was based on an older state than the server holds (another
 * device wrote first): fetch the vault again, check it, and redo the change on top.
 */
export const VAULT_STATE_STALE = 'vault-state-stale';
/** The `code` of a 428: the vault has a state and the write carried none. */
export const VAULT_STATE_REQUIRED = 'vault-state-required';

export const vaultStateErrorSchema = z.object({
  message: z.string(),
  code: z.enum([VAULT_STATE_STALE, VAULT_STATE_REQUIRED]),
  /** The state the server holds now (null: none). */
  state: z.string().nullable(),
});
