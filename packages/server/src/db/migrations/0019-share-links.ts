import type { Kysely } from 'kysely';

/**
 * Share links (decision 0078): a text or an item copy sealed in the browser under a key only
 * the link's fragment carries. The row holds the ciphertext, the key check and the password's
 * salt (all useless without the fragment), the expiry and the openings left, which one
 * `UPDATE ... WHERE openings_left > 0 RETURNING` counts down, so concurrent openings on any
 * number of server processes never open a link more often than its owner allowed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('share_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('ciphertext', 'text', (c) => c.notNull())
    .addColumn('key_check', 'text', (c) => c.notNull())
    .addColumn('password_salt', 'text')
    .addColumn('max_openings', 'integer', (c) => c.notNull())
    .addColumn('openings_left', 'integer', (c) => c.notNull())
    .addColumn('delete_after_opening', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('share_links_user_idx').on('share_links').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('share_links_expiry_idx').on('share_links').column('expires_at').execute();
}
