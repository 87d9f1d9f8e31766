import { VAULT_STATE_HEADER, vaultStateErrorSchema } from '@lockit/contract';
import { ApiError } from '../../http/api-errors';

/** The header a write carries with the state after it (none: the vault has no state yet). */
export const vaultStateHeaders = (state: string | undefined): Record<string, string> | undefined =>
  state === undefined ? undefined : { [VAULT_STATE_HEADER]: state };

/**
 * True when `error` is the server refusing a write for its vault state: 409 vault-state-stale
 * (another device wrote first) or 428 vault-state-required (the write carried none though
 * the vault has one). Either way: fetch the vault again, check it, redo the change on top.
 * An entry's own revision conflict (409 with the current entry) is not one of these.
 */
export function isVaultStateRefusal(error: unknown): boolean {
  if (!(error instanceof ApiError) || (error.status !== 409 && error.status !== 428)) return false;
  return vaultStateErrorSchema.safeParse(error.body).success;
}
