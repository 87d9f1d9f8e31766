import { z } from 'zod';

/**
 * Whole-vault integrity (decision 0053). The browser authenticates the set of the
 * vault's live entries and folders (each one's id, revision and ciphertexts) with a key derived
 * from the vault key, under a counter every change of that set advances, and hands the server
 * the result as one opaque string:
 *
 *   v1.<counter>.<entries>.<folders>.<sum>.<tag>
 *
 * counter, entries and folders are decimal; sum (the sum of every member's keyed element,
 * mod 2^256) and tag (an HMAC over the rest) are 32 bytes of base64url each. The server
 * cannot make or change one: it only stores what the browser sent, compares counters, and
 * serves it back with the list.
 */
export const VAULT_STATE_VERSION = 'v1';

/**
 * The header a write that changes the live set (add, edit, trash, restore, folder add, rename
 * and delete, an import batch and its undo) carries with the state after the change, and the
 * header the list and folder answers carry with the state their body matches (absent: none yet).
 */
export const VAULT_STATE_HEADER = 'x-lockit-vault-state';

/** The highest counter accepted: far beyond any real count of changes. */
export const MAX_VAULT_STATE_COUNTER = 1_000_000_000_000;

const VAULT_STATE_PATTERN =
  /^v1\.(0|[1-9]\d{0,12})\.(0|[1-9]\d{0,6})\.(0|[1-9]\d{0,6})\.([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{43})$/;

export interface VaultStateParts {
  counter: number;
  entries: number;
  folders: number;
  sum: string;
  tag: string;
}

/** The parts of a vault state string, or null when it is not one (any other shape, or counter 0). */
export function parseVaultState(value: string): VaultStateParts | null {
  const match = VAULT_STATE_PATTERN.exec(value);
  if (!match) return null;
  const counter = Number(match[1]);
  if (counter < 1 || counter > MAX_VAULT_STATE_COUNTER) return null;
  return { counter, entries: Number(match[2]), folders: Number(match[3]), sum: match[4]!, tag: match[5]! };
}

export function formatVaultState(parts: VaultStateParts): string {
  return `${VAULT_STATE_VERSION}.${parts.counter}.${parts.entries}.${parts.folders}.${parts.sum}.${parts.tag}`;
}

export const vaultStateSchema = z
  .string('must be a vault state')
  .max(200, 'must be a vault state')
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
