import type { Kysely } from 'kysely';

/**
 * The owner's label of a share link: what was shared and from which item, sealed under the
 * vault key in the browser (so the server learns neither), shown only in the owner's list so
 * that several links can be told apart and the right one revoked. Links made before it have none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('share_links').addColumn('owner_label', 'text').execute();
}
