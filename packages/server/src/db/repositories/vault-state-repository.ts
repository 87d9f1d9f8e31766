import { isVersion1VaultState } from '@lockit/contract';
import type { Db, Executor } from '../schema';

/** What the users row holds of a vault's integrity (decision 0053); counter 0: no state yet. */
export interface StoredVaultState {
  state: string | null;
  counter: number;
  vaultRevision: number;
}

/**
 * The vault state columns of `users`. Every change is one conditional UPDATE on the user's
 * row, so the comparison and the write are one step: of two writers racing from the same
 * counter, one matches and the other updates nothing (PostgreSQL re-checks the condition on
 * the row the first one committed; SQLite runs one transaction at a time).
 */
export function createVaultStateRepository(db: Db) {
  return {
    async find(userId: string, ex: Executor = db): Promise<StoredVaultState | undefined> {
      const row = await ex
        .selectFrom('users')
        .select(['vault_state', 'vault_state_counter', 'vault_revision'])
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!row) return undefined;
      return { state: row.vault_state, counter: Number(row.vault_state_counter), vaultRevision: Number(row.vault_revision) };
    },

    /**
     * Bumps the vault revision and, with `next`, stores it as the state, only if the stored
     * counter is exactly `next.counter - 1`; without `next`, only while the vault has no state
     * (counter 0). A version 1 `next` is written only over no state or another version 1 one
     * (decision 0061: a v2 state covers Trash, a v1 one does not). Returns whether the row was
     * written.
     */
    async advance(userId: string, next: { state: string; counter: number } | undefined, ex: Executor = db): Promise<boolean> {
      let query = ex
        .updateTable('users')
        .set((eb) => ({
          vault_revision: eb('vault_revision', '+', 1),
          ...(next ? { vault_state: next.state, vault_state_counter: next.counter } : {}),
        }))
        .where('id', '=', userId)
        .where('vault_state_counter', '=', next ? next.counter - 1 : 0);
      if (next && isVersion1VaultState(next.state))
        query = query.where((eb) => eb.or([eb('vault_state', 'is', null), eb('vault_state', 'like', 'v1.%')]));
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * Sets the first state (counter 1) of a vault that has none; returns whether it was stored.
     * It bumps the vault revision too: the list answer cached for the old revision carries the
     * old (absent) state, and must not be served again.
     */
    async init(userId: string, state: string, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .updateTable('users')
        .set((eb) => ({ vault_state: state, vault_state_counter: 1, vault_revision: eb('vault_revision', '+', 1) }))
        .where('id', '=', userId)
        .where('vault_state_counter', '=', 0)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export type VaultStateRepository = ReturnType<typeof createVaultStateRepository>;
