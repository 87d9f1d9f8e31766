import type { Kysely } from 'kysely';

/**
 * Which WebAuthn credentials may sign in on their own (decision 0049): passkeys
 * (registered with user verification required, as discoverable credentials) may; security
 * keys, which the owner added as a second step after the password, may not, even when their
 * authenticator could answer a discoverable challenge. Credentials registered before this
 * migration keep working as they did (1).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('webauthn_credentials')
    .addColumn('signs_in', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}
