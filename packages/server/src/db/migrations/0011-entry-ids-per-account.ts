import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Entry ids are unique per account, not across accounts: the key of `entries`
 * becomes (user_id, id), and `entry_history` refers to an entry by (user_id, entry_id). Before,
 * adding an entry with an id another account holds answered 409, which told the client that
 * the id exists somewhere. Every row is kept as it is: only keys change.
 *
 * PostgreSQL changes the constraints in place. SQLite cannot change a primary key, so both
 * tables are rebuilt, in an order that never drops a table another one still refers to
 * (foreign keys stay on: dropping a referenced table would cascade into its history).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await upPostgres(db);
  else await upSqlite(db);
}

/** The dialect in hand: one migration set drives both databases (db/create-database.ts). */
function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  await sql`alter table entry_history drop constraint entry_history_entry_id_fkey`.execute(db);
  await sql`alter table entries drop constraint entries_pkey`.execute(db);
  await sql`alter table entries add constraint entries_pkey primary key (user_id, id)`.execute(db);
  await sql`alter table entry_history add constraint entry_history_entry_fkey
    foreign key (user_id, entry_id) references entries (user_id, id) on delete cascade`.execute(db);
}

const ENTRY_COLUMNS = sql.raw(
  'id, user_id, service_name, username, password, url, notes, revision, created_at, updated_at, overview, details, deleted_at, import_batch',
);
const HISTORY_COLUMNS = sql.raw(
  'id, entry_id, user_id, revision, service_name, username, password, url, notes, overview, details, saved_at, replaced_at',
);

async function upSqlite(db: Kysely<unknown>): Promise<void> {
  // 1. History aside (no foreign keys), so nothing refers to `entries` while it is rebuilt.
  await sql`create table entry_history_copy as select ${HISTORY_COLUMNS} from entry_history`.execute(db);
  await db.schema.dropTable('entry_history').execute();

  // 2. Entries under their new key.
  await db.schema
    .createTable('entries_rebuilt')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('service_name', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('password', 'text', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('notes', 'text')
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('overview', 'text')
    .addColumn('details', 'text')
    .addColumn('deleted_at', 'bigint')
    .addColumn('import_batch', 'text')
    .addPrimaryKeyConstraint('entries_pkey', ['user_id', 'id'])
    .execute();
  await sql`insert into entries_rebuilt (${ENTRY_COLUMNS}) select ${ENTRY_COLUMNS} from entries`.execute(db);
  await db.schema.dropTable('entries').execute();
  await sql`alter table entries_rebuilt rename to entries`.execute(db);
  // The indexes of 0002, 0003 and 0005, dropped with the old table.
  await db.schema
    .createIndex('entries_user_id_created_at_id_idx')
    .on('entries')
    .columns(['user_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('entries_deleted_at_idx').on('entries').column('deleted_at').execute();
  await db.schema.createIndex('entries_user_id_import_batch_idx').on('entries').columns(['user_id', 'import_batch']).execute();

  // 3. History back, referring to its entry by (user_id, entry_id).
  await db.schema
    .createTable('entry_history')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('entry_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('service_name', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('password', 'text', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('notes', 'text')
    .addColumn('overview', 'text')
    .addColumn('details', 'text')
    .addColumn('saved_at', 'bigint', (c) => c.notNull())
    .addColumn('replaced_at', 'bigint', (c) => c.notNull())
    .addForeignKeyConstraint('entry_history_entry_fkey', ['user_id', 'entry_id'], 'entries', ['user_id', 'id'], (c) =>
      c.onDelete('cascade'),
    )
    .execute();
  await sql`insert into entry_history (${HISTORY_COLUMNS}) select ${HISTORY_COLUMNS} from entry_history_copy`.execute(db);
  await db.schema.dropTable('entry_history_copy').execute();
  await db.schema
    .createIndex('entry_history_user_id_entry_id_revision_idx')
    .on('entry_history')
    .columns(['user_id', 'entry_id', 'revision'])
    .execute();
}
