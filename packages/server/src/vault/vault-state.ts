import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  parseTrashedAt,
  parseVaultState,
  TRASHED_AT_HEADER,
  VAULT_STATE_HEADER,
  VAULT_STATE_REQUIRED,
  VAULT_STATE_STALE,
  vaultStateSchema,
} from '@lockit/contract';
import type { AppContext } from '../app-context';
import type { Executor } from '../db/schema';
import { HttpError, SIGN_IN_REQUIRED } from '../http/http-error';
import { parseInput } from '../http/parse-body';

/** The state a write carries (its header), parsed: the counter is what the swap compares. */
export interface VaultStateWrite {
  state: string;
  counter: number;
}

export const VAULT_STATE_MESSAGES = {
  stale: 'Your vault was changed elsewhere since this change was made. Reload and try again.',
  required: 'This vault is protected by an integrity check: reload Lockit and try again.',
} as const;

const headerSchema = z.object({ [VAULT_STATE_HEADER]: vaultStateSchema });

/**
 * The `x-lockit-vault-state` header of a write that changes the live set: undefined when the
 * request has none, a 400 naming the header when it is not a vault state. Read it before the
 * write's transaction, so bad input is refused before anything is touched.
 */
export function vaultStateOfRequest(request: FastifyRequest): VaultStateWrite | undefined {
  const value = request.headers[VAULT_STATE_HEADER];
  if (value === undefined) return undefined;
  const state = parseInput(headerSchema, { [VAULT_STATE_HEADER]: value })[VAULT_STATE_HEADER];
  return { state, counter: parseVaultState(state)!.counter };
}

/**
 * The `x-lockit-trashed-at` header of a move to Trash: the time the browser sealed into the
 * trashed entry's element (decision 0061), stored as its `deleted_at` exactly; undefined when
 * the request has none (the server's clock is used, as before); a 400 naming the header when
 * it is not whole milliseconds. Read it before the write's transaction.
 */
export function trashedAtOfRequest(request: FastifyRequest): number | undefined {
  const value = request.headers[TRASHED_AT_HEADER];
  if (value === undefined) return undefined;
  const at = typeof value === 'string' ? parseTrashedAt(value) : null;
  if (at === null) throw new HttpError(400, `${TRASHED_AT_HEADER} must be a whole number of milliseconds since 1970`);
  return at;
}

/**
 * The vault state step of a write that changes the vault's set (add, edit, Trash, restore,
 * purge, an import batch and its undo, folder add, rename and delete). Call it INSIDE the write's
 * transaction, after the write itself (so an entry's own revision conflict, found first, keeps
 * its answer), in place of bumping the vault revision: it bumps it, in the same statement.
 *
 * - With a state: stored only if the stored counter is exactly its counter - 1, and never a
 *   version 1 state on top of a version 2 one (a tab still running the code from before Trash
 *   was covered would drop Trash from the check); otherwise 409 `{ code: 'vault-state-stale',
 *   state: <stored> }` (another device wrote first; the tab fetches the vault again).
 * - Without one: allowed only while the vault has no state (plain API calls, vaults no
 *   current browser has opened); otherwise 428 `{ code: 'vault-state-required', state }`.
 *
 * Invariant: a refusal throws, which rolls the whole transaction back, so nothing of a
 * refused write remains. The server never makes or changes a state: it cannot forge one.
 */
export async function applyVaultState(
  ctx: Pick<AppContext, 'repos'>,
  trx: Executor,
  userId: string,
  write: VaultStateWrite | undefined,
): Promise<void> {
  if (await ctx.repos.vaultState.advance(userId, write, trx)) return;
  const stored = await ctx.repos.vaultState.find(userId, trx);
  if (!stored) throw new HttpError(401, SIGN_IN_REQUIRED);
  throw write ? vaultStateStale(stored.state) : vaultStateRequired(stored.state);
}

/** 409: the write was based on an older state than the one stored. */
export function vaultStateStale(stored: string | null): HttpError {
  return new HttpError(409, VAULT_STATE_MESSAGES.stale, { fields: { code: VAULT_STATE_STALE, state: stored } });
}

function vaultStateRequired(stored: string | null): HttpError {
  return new HttpError(428, VAULT_STATE_MESSAGES.required, { fields: { code: VAULT_STATE_REQUIRED, state: stored } });
}

/** Sets the answer's `x-lockit-vault-state` to the state its body matches; none: no header. */
export function sendVaultState(reply: FastifyReply, state: string | null): void {
  if (state !== null) reply.header(VAULT_STATE_HEADER, state);
}
