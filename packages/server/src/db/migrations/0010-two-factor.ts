import type { Kysely } from 'kysely';

/**
 * Two-factor sign-in and passkeys. None of it is part of the vault's encryption:
 * a second factor guards the session, the keys stay the master password's (or a passkey's
 * PRF output, which wraps a copy of the vault key the server cannot open).
 *
 * - users.totp_secret: the TOTP seed sealed under a key derived from the server secret, so a
 *   copy of the database alone does not yield it; null = TOTP off. The pending pair holds a
 *   seed being enrolled until a code confirms it. totp_last_step refuses a replayed code.
 * - users.two_factor_epoch: raised whenever a factor is added or removed, recovery codes are
 *   made again or the password changes; a remembered browser's cookie names the epoch it was
 *   made in, so raising it forgets every remembered browser.
 * - recovery_codes: SHA-256 of each single-use code (80 random bits each, so a fast hash
 *   is enough); used_at set once.
 * - webauthn_credentials: security keys and passkeys. unlock_key, when set, is the vault key
 *   wrapped under a key only that credential's PRF output gives; unlock_salt is the PRF input.
 * - pending_sign_ins: a correct password awaiting its second factor; only the token's SHA-256
 *   is stored; single use, short-lived, with its failure count.
 * - webauthn_challenges: one challenge per ceremony (registration, passkey sign-in), single use.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('totp_secret', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_enabled_at', 'bigint').execute();
  await db.schema.alterTable('users').addColumn('totp_last_step', 'bigint').execute();
  await db.schema.alterTable('users').addColumn('totp_pending_secret', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_pending_expires_at', 'bigint').execute();
  await db.schema
    .alterTable('users')
    .addColumn('two_factor_epoch', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('recovery_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('recovery_codes_user_idx').on('recovery_codes').column('user_id').execute();

  await db.schema
    .createTable('webauthn_credentials')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull())
    .addColumn('transports', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('device_type', 'text', (c) => c.notNull())
    .addColumn('backed_up', 'integer', (c) => c.notNull())
    .addColumn('unlock_key', 'text')
    .addColumn('unlock_salt', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('webauthn_credentials_user_idx').on('webauthn_credentials').column('user_id').execute();

  await db.schema
    .createTable('pending_sign_ins')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('known_device', 'integer', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('webauthn_challenge', 'text')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failure_mailed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pending_sign_ins_user_idx').on('pending_sign_ins').column('user_id').execute();

  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('challenge', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}
