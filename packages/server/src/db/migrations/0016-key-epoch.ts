import type { Kysely } from 'kysely';

/**
 * Key epochs: which vault key the account holds, counted by key rotations (a password change
 * re-wraps the same key and keeps it). The browser binds it into the associated data of every
 * wrap of the vault key (the master password's, each passkey's). Every existing wrap was made
 * before epochs existed and binds none, which is epoch 0: every existing row is epoch 0 (the
 * default), and a rotation raises it by exactly one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('key_epoch', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
}
