import type { Kysely } from 'kysely';

/**
 * Key generations: the generation of the account's wrapped vault key, bound into
 * the wrap's associated data by the browser. Every existing wrap was made before generations
 * existed, so every existing row is generation 0 (the default); a password change raises it
 * by exactly one. Browsers remember the highest generation they saw and refuse a lower one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('key_generation', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
}
