import type { Insertable, Selectable } from 'kysely';
import type { Db, Executor, UsersTable } from '../schema';

export type UserRow = Selectable<UsersTable>;

export interface KeyMaterial {
  authHash: string;
  kdfAlgorithm: string;
  kdfMemoryKiB: number;
  kdfIterations: number;
  kdfParallelism: number;
  salt: string;
  protectedKey: string;
}

export function createUsersRepository(db: Db) {
  return {
    findById(id: string, ex: Executor = db): Promise<UserRow | undefined> {
      return ex.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    findByFoldedUsername(usernameFolded: string, ex: Executor = db): Promise<UserRow | undefined> {
      return ex.selectFrom('users').selectAll().where('username_folded', '=', usernameFolded).executeTakeFirst();
    },

    findByFoldedEmail(emailFolded: string, ex: Executor = db): Promise<UserRow | undefined> {
      return ex.selectFrom('users').selectAll().where('email_folded', '=', emailFolded).executeTakeFirst();
    },

    async insert(user: Insertable<UsersTable>, ex: Executor = db): Promise<void> {
      await ex.insertInto('users').values(user).execute();
    },

    async updateUsername(id: string, username: string, usernameFolded: string, now: number, ex: Executor = db) {
      await ex
        .updateTable('users')
        .set({ username, username_folded: usernameFolded, updated_at: now })
        .where('id', '=', id)
        .execute();
    },

    /**
     * Stores new key material only if `keys.keyGeneration` is exactly the stored generation + 1,
     * in one conditional UPDATE: of two changes racing from the same generation, one matches
     * and the other updates nothing. Returns whether this one was stored.
     */
    async updateKeyMaterial(
      id: string,
      keys: KeyMaterial & { keyGeneration: number },
      now: number,
      ex: Executor = db,
    ): Promise<boolean> {
      const result = await ex
        .updateTable('users')
        .set({
          auth_hash: keys.authHash,
          kdf_algorithm: keys.kdfAlgorithm,
          kdf_memory_kib: keys.kdfMemoryKiB,
          kdf_iterations: keys.kdfIterations,
          kdf_parallelism: keys.kdfParallelism,
          salt: keys.salt,
          protected_key: keys.protectedKey,
          key_generation: keys.keyGeneration,
          updated_at: now,
        })
        .where('id', '=', id)
        .where('key_generation', '=', keys.keyGeneration - 1)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async markVerified(id: string, now: number, ex: Executor = db): Promise<void> {
      await ex.updateTable('users').set({ verified_at: now, updated_at: now }).where('id', '=', id).execute();
    },

    /** Names a new state of the vault; call in the transaction that writes the entries or folders. */
    async bumpVaultRevision(id: string, ex: Executor = db): Promise<void> {
      await ex
        .updateTable('users')
        .set((eb) => ({ vault_revision: eb('vault_revision', '+', 1) }))
        .where('id', '=', id)
        .execute();
    },

    /** The same for several users at once (the trash purge job). */
    async bumpVaultRevisions(ids: readonly string[], ex: Executor = db): Promise<void> {
      if (ids.length === 0) return;
      await ex
        .updateTable('users')
        .set((eb) => ({ vault_revision: eb('vault_revision', '+', 1) }))
        .where('id', 'in', ids)
        .execute();
    },

    /** At sign-in and, at most once a minute, on session use (see session-service.ts). */
    async touchLastSeen(id: string, now: number, ex: Executor = db): Promise<void> {
      await ex.updateTable('users').set({ last_seen_at: now }).where('id', '=', id).execute();
    },

    async delete(id: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('users').where('id', '=', id).execute();
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
