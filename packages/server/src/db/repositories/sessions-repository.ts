import type { CompiledQuery } from 'kysely';
import { createBatchedLookup, LOOKUP_BATCH_MAX } from '../batched-lookup';
import type { Db, Executor, SessionsTable } from '../schema';
import type { UserRow } from './users-repository';

export type SessionRow = SessionsTable;

/**
 * What an authenticated request knows of its user: who, and which state of the vault is
 * current. Routes that need more (profile, key material) read the user row themselves.
 */
export type SessionUser = Pick<UserRow, 'id' | 'username' | 'vault_revision'>;

/** A session's limits with its user: what every authenticated request needs. */
export interface SessionWithUser {
  session: Pick<SessionRow, 'id' | 'access_expires_at' | 'absolute_expires_at' | 'last_used_at'>;
  user: SessionUser;
}

export interface RotatedTokens {
  accessHash: string;
  accessExpiresAt: number;
  refreshHash: string;
  refreshExpiresAt: number;
}

/** A session as its owner's device list shows it: never a token hash. */
export type ListedSession = Pick<
  SessionRow,
  'id' | 'user_agent' | 'created_at' | 'last_used_at' | 'sign_in_address' | 'last_address'
>;

/** Sessions are looked up only by token hashes; tokens themselves are never stored. */
export function createSessionsRepository(db: Db) {
  // Named columns, not users.*: the lookup runs on every authenticated request, and the
  // user's other columns (hashes, wrapped key) were two thirds of its cost on SQLite.
  const sessionWithUser = db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.access_hash',
      'sessions.id as session_id',
      'sessions.access_expires_at',
      'sessions.absolute_expires_at',
      'sessions.last_used_at',
      'users.id as user_id',
      'users.username',
      'users.vault_revision',
      'users.disabled_at',
    ]);
  type LookupRow = Awaited<ReturnType<typeof sessionWithUser.executeTakeFirstOrThrow>>;
  const byOneHash = sessionWithUser.where('sessions.access_hash', '=', '').compile();
  // Built and compiled once, for 1, 2, 4 … LOOKUP_BATCH_MAX hashes: each call only swaps the
  // parameters (building the query was a tenth of an authenticated request's time), and the
  // few texts stay prepared statements.
  const byHashes = new Map<number, CompiledQuery<LookupRow>>();
  for (let size = 1; size <= LOOKUP_BATCH_MAX; size *= 2) {
    byHashes.set(size, sessionWithUser.where('sessions.access_hash', 'in', new Array<string>(size).fill('')).compile());
  }
  const lookUp = createBatchedLookup<LookupRow>(
    async (hashes) => {
      let size = 1;
      while (size < hashes.length) size *= 2;
      const padded = [...hashes];
      while (padded.length < size) padded.push(hashes[0] ?? '');
      const query = byHashes.get(size);
      if (!query) throw new Error(`no session lookup for ${size} hashes`);
      return (await db.executeQuery(withParameters(query, padded))).rows;
    },
    (row) => row.access_hash,
  );

  return {
    async insert(session: SessionRow, ex: Executor = db): Promise<void> {
      await ex.insertInto('sessions').values(session).execute();
    },

    findByAccessHash(accessHash: string, ex: Executor = db): Promise<SessionRow | undefined> {
      return ex.selectFrom('sessions').selectAll().where('access_hash', '=', accessHash).executeTakeFirst();
    },

    /**
     * One query (a join) instead of two: it runs on every authenticated request. Outside a
     * transaction, lookups that arrive together share a query (see batched-lookup.ts).
     */
    async findWithUserByAccessHash(accessHash: string, ex: Executor = db): Promise<SessionWithUser | undefined> {
      const row = ex === db ? await lookUp(accessHash) : (await ex.executeQuery(withParameters(byOneHash, [accessHash]))).rows[0];
      // A disabled account's sessions are deleted when it is disabled; this closes the race
      // with a sign-in that was already past its check at that moment.
      if (!row || row.disabled_at !== null) return undefined;
      // Copied field by field: an object rest (`...user`) cost more than the query's parsing.
      return {
        session: {
          id: row.session_id,
          access_expires_at: row.access_expires_at,
          absolute_expires_at: row.absolute_expires_at,
          last_used_at: row.last_used_at,
        },
        user: { id: row.user_id, username: row.username, vault_revision: row.vault_revision },
      };
    },

    findByRefreshHash(refreshHash: string, ex: Executor = db): Promise<SessionRow | undefined> {
      return ex.selectFrom('sessions').selectAll().where('refresh_hash', '=', refreshHash).executeTakeFirst();
    },

    /**
     * Swaps both token hashes, but only if the refresh hash is still the one presented:
     * of two concurrent refreshes with one token, exactly one wins. Returns whether it did.
     */
    async rotate(
      id: string,
      presentedRefreshHash: string,
      tokens: RotatedTokens,
      now: number,
      address: string | null,
      ex: Executor = db,
    ) {
      const result = await ex
        .updateTable('sessions')
        .set({
          access_hash: tokens.accessHash,
          access_expires_at: tokens.accessExpiresAt,
          refresh_hash: tokens.refreshHash,
          refresh_expires_at: tokens.refreshExpiresAt,
          last_used_at: now,
          // Unknown (null): keep the last address known rather than forget it.
          ...(address === null ? {} : { last_address: address }),
        })
        .where('id', '=', id)
        .where('refresh_hash', '=', presentedRefreshHash)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async touch(id: string, now: number, address: string | null, ex: Executor = db): Promise<void> {
      const seen = address === null ? { last_used_at: now } : { last_used_at: now, last_address: address };
      await ex.updateTable('sessions').set(seen).where('id', '=', id).execute();
    },

    /** The user's sessions still usable at `now`, most recently used first. */
    listUsableForUser(userId: string, now: number, ex: Executor = db): Promise<ListedSession[]> {
      return ex
        .selectFrom('sessions')
        .select(['id', 'user_agent', 'created_at', 'last_used_at', 'sign_in_address', 'last_address'])
        .where('user_id', '=', userId)
        .where('refresh_expires_at', '>', now)
        .where('absolute_expires_at', '>', now)
        .orderBy('last_used_at', 'desc')
        .orderBy('id')
        .execute();
    },

    /**
     * Deletes one session of this user (and its retired refresh tokens); a session of another
     * user is left alone. Returns whether one was deleted.
     */
    async deleteOneOfUser(userId: string, id: string, ex: Executor = db): Promise<boolean> {
      const owned = ex.selectFrom('sessions').select('id').where('id', '=', id).where('user_id', '=', userId);
      await ex.deleteFrom('retired_refresh_tokens').where('session_id', 'in', owned).execute();
      const result = await ex.deleteFrom('sessions').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    /** Deletes every session of this user but `keepId` (and their retired refresh tokens); returns how many. */
    async deleteOthersOfUser(userId: string, keepId: string, ex: Executor = db): Promise<number> {
      const others = ex.selectFrom('sessions').select('id').where('user_id', '=', userId).where('id', '!=', keepId);
      await ex.deleteFrom('retired_refresh_tokens').where('session_id', 'in', others).execute();
      const result = await ex.deleteFrom('sessions').where('user_id', '=', userId).where('id', '!=', keepId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async deleteById(id: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('retired_refresh_tokens').where('session_id', '=', id).execute();
      await ex.deleteFrom('sessions').where('id', '=', id).execute();
    },

    async deleteByUserId(userId: string, ex: Executor = db): Promise<void> {
      const ids = ex.selectFrom('sessions').select('id').where('user_id', '=', userId);
      await ex.deleteFrom('retired_refresh_tokens').where('session_id', 'in', ids).execute();
      await ex.deleteFrom('sessions').where('user_id', '=', userId).execute();
    },

    /** Sessions past their idle or absolute limit can never be used again. */
    async deleteExpiredForUser(userId: string, now: number, ex: Executor = db): Promise<void> {
      const expired = ex
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', userId)
        .where((eb) => eb.or([eb('refresh_expires_at', '<=', now), eb('absolute_expires_at', '<=', now)]));
      await ex.deleteFrom('retired_refresh_tokens').where('session_id', 'in', expired).execute();
      await ex
        .deleteFrom('sessions')
        .where('user_id', '=', userId)
        .where((eb) => eb.or([eb('refresh_expires_at', '<=', now), eb('absolute_expires_at', '<=', now)]))
        .execute();
    },

    async retireRefreshToken(tokenHash: string, sessionId: string, now: number, ex: Executor = db) {
      await ex
        .insertInto('retired_refresh_tokens')
        .values({ token_hash: tokenHash, session_id: sessionId, retired_at: now })
        .execute();
    },

    findRetired(tokenHash: string, ex: Executor = db) {
      return ex.selectFrom('retired_refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },
  };
}

export type SessionsRepository = ReturnType<typeof createSessionsRepository>;

/** The same compiled SQL with other values (the text holds only placeholders). */
function withParameters<Row>(query: CompiledQuery<Row>, parameters: readonly unknown[]): CompiledQuery<Row> {
  return { ...query, parameters };
}
