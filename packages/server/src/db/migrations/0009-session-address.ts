import type { Kysely } from 'kysely';

/**
 * Sessions and devices: the client address a session signed in from, and the last
 * one it was seen at, written with `last_used_at` (at most once a minute). Null for sessions
 * opened before this migration. The address is the one Fastify derives under TRUST_PROXY.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('sign_in_address', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('last_address', 'text').execute();
}
