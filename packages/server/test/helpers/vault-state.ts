import { randomBytes } from 'node:crypto';
import { formatVaultState, VAULT_STATE_HEADER } from '@lockit/contract';
import type { Db } from '../../src/db/schema';

/**
 * A well-formed vault state with this counter. The sum and tag are random: the server cannot
 * check a tag (only the browser holds the key), so any 43-character base64url value is one.
 */
export function vaultStateOf(counter: number, entries = 0, folders = 0): string {
  const b64 = () => randomBytes(32).toString('base64url');
  return formatVaultState({ counter, entries, folders, sum: b64(), tag: b64() });
}

/** As vaultStateOf, a version 2 state (Trash counted, decision 0061). */
export function vaultStateV2Of(counter: number, entries = 0, trashed = 0, folders = 0): string {
  const b64 = () => randomBytes(32).toString('base64url');
  return formatVaultState({ counter, entries, trashed, folders, sum: b64(), tag: b64() });
}

/** The request headers of a write carrying `state`. */
export function withState(state: string): { headers: Record<string, string> } {
  return { headers: { [VAULT_STATE_HEADER]: state } };
}

/** What the users row holds for this account: state, counter and vault revision. */
export async function storedVaultState(db: Db, username: string) {
  const row = await db
    .selectFrom('users')
    .select(['vault_state', 'vault_state_counter', 'vault_revision'])
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return { state: row.vault_state, counter: Number(row.vault_state_counter), vaultRevision: Number(row.vault_revision) };
}
