import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Whole-vault integrity (decision 0053), and folder ids per account.
 *
 * 1. `users.vault_state`: the last state string the browser sent (opaque here: the server can
 *    neither make nor check one), and `vault_state_counter`, its counter, which every write of
 *    the live set compares and swaps. 0 and null: the vault has no state yet.
 * 2. Folder ids are unique per account, not across accounts, like entry ids since 0011: the
 *    key of `folders` becomes (user_id, id). Before, adding a folder under an id another
 *    account holds answered 409, which told the client that the id exists somewhere. Every row
 *    is kept as it is. PostgreSQL changes the key in place; SQLite cannot change a primary key,
 *    so the table is rebuilt (nothing refers to `folders`, so it can be dropped and renamed).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('vault_state', 'text').execute();
  await db.schema
    .alterTable('users')
    .addColumn('vault_state_counter', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  if (isPostgres(db)) await foldersPerAccountPostgres(db);
  else await foldersPerAccountSqlite(db);
}

/** The dialect in hand: one migration set drives both databases (db/create-database.ts). */
function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

async function foldersPerAccountPostgres(db: Kysely<unknown>): Promise<void> {
  await sql`alter table folders drop constraint folders_pkey`.execute(db);
  await sql`alter table folders add constraint folders_pkey primary key (user_id, id)`.execute(db);
}

const FOLDER_COLUMNS = sql.raw('id, user_id, name, revision, created_at, updated_at');

async function foldersPerAccountSqlite(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('folders_rebuilt')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('folders_pkey', ['user_id', 'id'])
    .execute();
  await sql`insert into folders_rebuilt (${FOLDER_COLUMNS}) select ${FOLDER_COLUMNS} from folders`.execute(db);
  await db.schema.dropTable('folders').execute();
  await sql`alter table folders_rebuilt rename to folders`.execute(db);
  // The index of 0003, dropped with the old table (the key now serves lookups by user too).
  await db.schema.createIndex('folders_user_id_idx').on('folders').column('user_id').execute();
}
