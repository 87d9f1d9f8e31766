import { sql, type Kysely } from 'kysely';

/**
 * A per-user vault revision, bumped in the same transaction as every entry write, so a
 * serialized list can be reused while it is current (see vault/vault-list-cache.ts); and
 * the list index extended by `id`, the list's tie-breaker, so the ordered list is read
 * straight from the index without a sort.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('vault_revision', 'bigint', (c) => c.notNull().defaultTo(sql`0`))
    .execute();
  await db.schema
    .createIndex('entries_user_id_created_at_id_idx')
    .on('entries')
    .columns(['user_id', 'created_at', 'id'])
    .execute();
  await db.schema.dropIndex('entries_user_id_created_at_idx').execute();
}
