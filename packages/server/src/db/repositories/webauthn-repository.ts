import type { Db, Executor, WebauthnChallengesTable, WebauthnCredentialsTable } from '../schema';

export type WebauthnCredentialRow = WebauthnCredentialsTable;
export type WebauthnChallengeRow = WebauthnChallengesTable;

/** What a ceremony's challenge is for; a challenge made for one never serves another. */
export type ChallengePurpose = 'register-passkey' | 'register-security-key' | 'sign-in' | 'unlock';

/**
 * Security keys, passkeys and the challenges of their ceremonies. Every query about a
 * credential that a user acts on names that user, so one account's ids never reach another's.
 */
export function createWebauthnRepository(db: Db) {
  return {
    listByUser(userId: string, ex: Executor = db): Promise<WebauthnCredentialRow[]> {
      return ex
        .selectFrom('webauthn_credentials')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    /**
     * The user's passkeys that can unlock the vault: added as passkeys (`signs_in`) and holding
     * a PRF-wrapped vault key. A security key added as a second step never unlocks.
     */
    listUnlockingByUser(userId: string, ex: Executor = db): Promise<WebauthnCredentialRow[]> {
      return ex
        .selectFrom('webauthn_credentials')
        .selectAll()
        .where('user_id', '=', userId)
        .where('signs_in', '=', 1)
        .where('unlock_key', 'is not', null)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    /** Whether the user has at least one passkey that can unlock (see listUnlockingByUser). */
    async hasUnlocking(userId: string, ex: Executor = db): Promise<boolean> {
      const row = await ex
        .selectFrom('webauthn_credentials')
        .select('id')
        .where('user_id', '=', userId)
        .where('signs_in', '=', 1)
        .where('unlock_key', 'is not', null)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** By the authenticator's credential id (base64url), whoever owns it. */
    findByCredentialId(credentialId: string, ex: Executor = db): Promise<WebauthnCredentialRow | undefined> {
      return ex.selectFrom('webauthn_credentials').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
    },

    /** One of the user's own credentials by our id; undefined for anyone else's. */
    findOwned(userId: string, id: string, ex: Executor = db): Promise<WebauthnCredentialRow | undefined> {
      return ex
        .selectFrom('webauthn_credentials')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },

    async countByUser(userId: string, ex: Executor = db): Promise<number> {
      const row = await ex
        .selectFrom('webauthn_credentials')
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** False when the credential id is already registered (to anyone): nothing is written. */
    async insert(row: WebauthnCredentialRow, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .insertInto('webauthn_credentials')
        .values(row)
        .onConflict((oc) => oc.column('credential_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },

    /**
     * Records a successful assertion. Compare-and-swap on the counter it was verified against,
     * so of two concurrent assertions with the same counter only one counts; false for the other.
     */
    async recordUse(
      id: string,
      use: { verifiedAgainst: number; counter: number; backedUp: boolean; now: number },
      ex: Executor = db,
    ): Promise<boolean> {
      const result = await ex
        .updateTable('webauthn_credentials')
        .set({ counter: use.counter, backed_up: use.backedUp ? 1 : 0, last_used_at: use.now })
        .where('id', '=', id)
        .where('counter', '=', use.verifiedAgainst)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async rename(userId: string, id: string, name: string, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .updateTable('webauthn_credentials')
        .set({ name })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * Stores the unlock key on the user's own credential, in one conditional UPDATE, only while
     * the user's vault key is still of `unlock.keyEpoch`: a wrap made before a key rotation that
     * committed meanwhile (the commit cleared every unlock key) is never stored beside the new key.
     */
    async setUnlockKey(
      userId: string,
      id: string,
      unlock: { key: string; salt: string; keyEpoch: number },
      ex: Executor = db,
    ): Promise<'saved' | 'not-found' | 'stale-epoch'> {
      const result = await ex
        .updateTable('webauthn_credentials')
        .set({ unlock_key: unlock.key, unlock_salt: unlock.salt })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('users')
              .select('users.id')
              .where('users.id', '=', userId)
              .where('users.key_epoch', '=', unlock.keyEpoch),
          ),
        )
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) return 'saved';
      const owned = await ex
        .selectFrom('webauthn_credentials')
        .select('id')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return owned ? 'stale-epoch' : 'not-found';
    },

    /** Deletes the credential and, being in its row, its unlock key. */
    async delete(userId: string, id: string, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .deleteFrom('webauthn_credentials')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    /**
     * Takes the security-key challenge stored on a pending sign-in, once: clears it only if it
     * is still `challenge`, so of two answers to it exactly one proceeds. Undefined for the other.
     */
    async takePendingChallenge(pendingId: string, challenge: string, ex: Executor = db): Promise<string | undefined> {
      const result = await ex
        .updateTable('pending_sign_ins')
        .set({ webauthn_challenge: null })
        .where('id', '=', pendingId)
        .where('webauthn_challenge', '=', challenge)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1 ? challenge : undefined;
    },

    async insertChallenge(row: WebauthnChallengeRow, ex: Executor = db): Promise<void> {
      await ex.insertInto('webauthn_challenges').values(row).execute();
    },

    /**
     * Takes a challenge for one use: deletes the row if it is for this purpose and user (null
     * for a passkey sign-in) and has not expired, and returns it. A delete-returning, so of two
     * concurrent uses exactly one gets the challenge; the other (and any later one) gets undefined.
     */
    async consumeChallenge(
      id: string,
      purposes: readonly ChallengePurpose[],
      userId: string | null,
      now: number,
      ex: Executor = db,
    ): Promise<Pick<WebauthnChallengeRow, 'challenge' | 'purpose'> | undefined> {
      return ex
        .deleteFrom('webauthn_challenges')
        .where('id', '=', id)
        .where('purpose', 'in', purposes)
        .where((eb) => (userId === null ? eb('user_id', 'is', null) : eb('user_id', '=', userId)))
        .where('expires_at', '>', now)
        .returning(['challenge', 'purpose'])
        .executeTakeFirst();
    },
  };
}

export type WebauthnRepository = ReturnType<typeof createWebauthnRepository>;
