import { apiPaths } from '@lockit/contract';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type CompiledQuery } from 'kysely';
// The bench seeds with the server's own hash and explains the very SQL its repositories send.
import { createRepositories, hashAuthKey, type Database } from '@lockit/server/internals';
import { ApiClient } from '@lockit/test-support';
import { createServerDatabase, type ServerDatabase } from '@lockit/test-support';
import { median, printHeading, printTable } from '../support/report';
import { clientIp, encryptEntry, prepareKeys, signIn, type SeedKeys } from '../support/seed';
import { startLockitServer, type ServerProcess } from '../support/server-process';

const SIZES = [100, 1_000, 10_000];
const USERS = 10_000;
/** Entries of every other user: the entries table a 10,000-user server really has to search. */
const BACKGROUND_ENTRIES = Number(process.env.BENCH_GROWTH_BACKGROUND_ENTRIES ?? 30);
const POOL = 300;
const UNCACHED_RUNS = 7;
const WARM_RUNS = 20;

interface Measured {
  entries: number;
  id: string;
  username: string;
}

/**
 * Issue 6, part 5: the vault list on PostgreSQL as vaults grow (100 to 10,000 entries) and as
 * the database grows (the measured users alone, then 10,000 users), with the query plans.
 */
export async function growthBench(): Promise<void> {
  printHeading(`Growth on PostgreSQL: vault list at ${SIZES.join(' / ')} entries, then among ${USERS} users`);
  const db = await createServerDatabase('postgres', 'lockit-bench-growth');
  try {
    // The server's own migrations make the schema; every row after that is plain SQL.
    await (await startLockitServer({ db })).stop();
    const keys = await prepareKeys('correct horse battery staple');
    const authHash = await hashAuthKey(keys.authKey); // one Argon2 hash shared by every seeded user
    await seedPool(db, keys);

    let started = performance.now();
    const measured: Measured[] = [];
    for (const entries of SIZES) measured.push({ entries, ...(await insertUsers(db, keys, authHash, `size${entries}_`, 1))[0]! });
    for (const user of measured) await insertEntries(db, [user.id], user.entries);
    await db.query('analyze');
    const seedAlone = (performance.now() - started) / 1000;
    const alone = await measureAll(db, keys, measured);

    started = performance.now();
    const others = await insertUsers(db, keys, authHash, 'bg', USERS - measured.length);
    await insertEntries(
      db,
      others.map((u) => u.id),
      BACKGROUND_ENTRIES,
    );
    // Everyone else signed in once too: the session lookup searches 10,000 sessions.
    await db.query(
      `insert into sessions (id, user_id, access_hash, access_expires_at, refresh_hash, refresh_expires_at, absolute_expires_at, user_agent, created_at, last_used_at)
       select gen_random_uuid()::text, id, encode(sha256(gen_random_uuid()::text::bytea), 'hex'), $1::bigint,
              encode(sha256(gen_random_uuid()::text::bytea), 'hex'), $1::bigint, $1::bigint, 'bench', $2::bigint, $2::bigint
       from users where username like 'bg%'`,
      [Date.now() + 86_400_000, Date.now()],
    );
    // Planner statistics as autovacuum would have them on a server that grew over time.
    await db.query('analyze');
    const seedOthers = (performance.now() - started) / 1000;
    const crowd = await measureAll(db, keys, measured, true);

    const [counts] = await db.query<{ users: string; entries: string; sessions: string; size: string }>(
      `select (select count(*) from users) users, (select count(*) from entries) entries, (select count(*) from sessions) sessions,
              pg_size_pretty(pg_total_relation_size('entries')) size`,
    );
    printTable(
      `GET ${apiPaths.listEntries} on PostgreSQL, ms (uncached: vault_revision bumped by SQL before each read; warm: served from the per-revision cache)`,
      ['entries', 'bytes', `users`, 'first', 'uncached median', 'warm median'],
      measured.flatMap((user, i) =>
        [alone[i]!, crowd[i]!].map((m) => [user.entries, m.bytes, m.users, m.first, m.uncached, m.warm]),
      ),
    );
    console.log(
      `seeded in ${seedAlone.toFixed(1)} s (measured users) + ${seedOthers.toFixed(1)} s (${USERS - measured.length} users × ${BACKGROUND_ENTRIES} entries, one session each); ` +
        `now ${counts?.users} users, ${counts?.entries} entries (${counts?.size}), ${counts?.sessions} sessions`,
    );
  } finally {
    await db.drop();
  }
}

/** A few hundred real v1 ciphertexts, made once, for the SQL seeding to draw from. */
async function seedPool(db: ServerDatabase, keys: SeedKeys): Promise<void> {
  const bodies = await Promise.all(Array.from({ length: POOL }, (_, n) => encryptEntry(keys.vaultKey, n)));
  await db.query(
    'create temporary table pool (n int primary key, service_name text, username text, password text, url text, notes text)',
  );
  await db.query(
    `insert into pool select n - 1, s, u, p, l, o
     from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) with ordinality t(s, u, p, l, o, n)`,
    (['serviceName', 'username', 'password', 'url', 'notes'] as const).map((field) => bodies.map((b) => b[field])),
  );
}

/** `count` verified users, all with the same key material and auth hash (one known authKey). */
async function insertUsers(db: ServerDatabase, keys: SeedKeys, authHash: string, prefix: string, count: number) {
  return db.query<{ id: string; username: string }>(
    `insert into users (id, username, username_folded, email, email_folded, fullname, auth_hash, kdf_algorithm,
       kdf_memory_kib, kdf_iterations, kdf_parallelism, salt, protected_key, verified_at, created_at, updated_at)
     select gen_random_uuid()::text, $1 || g, $1 || g, $1 || g || '@example.test', $1 || g || '@example.test', 'Bench User',
            $2, $3, $4, $5, $6, $7, $8, $9::bigint, $9::bigint, $9::bigint
     from generate_series(1, $10::int) g
     returning id, username`,
    [
      prefix,
      authHash,
      keys.params.algorithm,
      keys.params.memoryKiB,
      keys.params.iterations,
      keys.params.parallelism,
      keys.salt,
      keys.protectedKey,
      Date.now(),
      count,
    ],
  );
}

/**
 * `perUser` entries for each user, generated inside PostgreSQL from the pool. Ciphertexts are
 * bound to their entry id, so these fresh ids no longer match them and no client could open
 * them; the server never checks that binding, so for a server-side timing they are as real.
 */
async function insertEntries(db: ServerDatabase, userIds: string[], perUser: number): Promise<void> {
  await db.query(
    `insert into entries (id, user_id, service_name, username, password, url, notes, revision, created_at, updated_at)
     select gen_random_uuid()::text, u.id, p.service_name, p.username, p.password, p.url, p.notes, 1, $3::bigint + g, $3::bigint + g
     from unnest($1::text[]) u(id) cross join generate_series(1, $2::int) g join pool p on p.n = g % ${POOL}`,
    [userIds, perUser, Date.now() - 86_400_000],
  );
}

interface Figures {
  users: number;
  bytes: number;
  first: number;
  uncached: number;
  warm: number;
}

/** A fresh server process; each measured user signs in, then reads its list. */
async function measureAll(db: ServerDatabase, keys: SeedKeys, measured: Measured[], explain = false) {
  const server = await startLockitServer({ db, env: { TRUST_PROXY: '1' } });
  try {
    const [{ users } = { users: '0' }] = await db.query<{ users: string }>('select count(*) users from users');
    const figures: Figures[] = [];
    for (const [i, user] of measured.entries()) {
      const session = new ApiClient(server.url, clientIp(10 + i));
      await signIn(session, user.username, keys.authKey);
      figures.push({ users: Number(users), ...(await timeList(server, db, session, user)) });
    }
    if (explain) await explainQueries(db, measured);
    return figures;
  } finally {
    await server.stop();
  }
}

async function timeList(server: ServerProcess, db: ServerDatabase, session: ApiClient, user: Measured) {
  let bytes = 0;
  const read = async () => {
    const start = performance.now();
    const answer = await fetch(`${server.url}${apiPaths.listEntries}`, { headers: { cookie: session.cookieHeader } });
    const body = await answer.arrayBuffer();
    const ms = performance.now() - start;
    if (answer.status !== 200) throw new Error(`list answered ${answer.status}`);
    bytes = body.byteLength;
    const count = (JSON.parse(Buffer.from(body).toString()) as { data: unknown[] }).data.length;
    if (count !== user.entries) throw new Error(`listed ${count} entries, expected ${user.entries}`);
    return ms;
  };
  const first = await read(); // this process's first read of this vault: nothing cached
  const uncached: number[] = [];
  for (let i = 0; i < UNCACHED_RUNS; i++) {
    // A new revision, as any entry write makes: the cached answer is no longer reachable.
    await db.query('update users set vault_revision = vault_revision + 1 where id = $1', [user.id]);
    uncached.push(await read());
  }
  const warm: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) warm.push(await read());
  return { bytes, first, uncached: median(uncached), warm: median(warm) };
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the SQL the repositories send: a Kysely on a dummy driver
 * runs the real repository methods and hands their compiled queries to the log hook.
 */
async function explainQueries(db: ServerDatabase, measured: Measured[]): Promise<void> {
  const compiled: CompiledQuery[] = [];
  const dummy = new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => new PostgresIntrospector(k),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    log: (event) => {
      if (event.level === 'query') compiled.push(event.query);
    },
  });
  const repos = createRepositories(dummy);
  const [session] = await db.query<{ access_hash: string }>(
    'select access_hash from sessions where user_id = $1 order by created_at desc limit 1',
    [measured[0]?.id],
  );
  await repos.sessions.findWithUserByAccessHash(session?.access_hash ?? '');
  // The smallest and the largest vault: the planner may choose differently for each.
  const lists = [measured[0], measured[measured.length - 1]].filter((u): u is Measured => u !== undefined);
  for (const user of lists) await repos.entries.listByUser(user.id);
  const names = [
    'session lookup (every authenticated request)',
    ...lists.map((u) => `vault list of the ${u.entries}-entry user`),
  ];
  for (const [i, query] of compiled.entries()) {
    const plan = await db.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${query.sql}`, [...query.parameters]);
    const lines = plan.map((r) => r['QUERY PLAN']);
    const indexes = [...new Set(lines.flatMap((l) => /(?:using|Index Scan on) (\S+)/.exec(l)?.[1] ?? []))];
    console.log(`\nEXPLAIN (ANALYZE, BUFFERS): ${names[i]}, ${USERS} users — indexes used: ${indexes.join(', ') || 'none'}`);
    console.log(`  ${query.sql}`);
    for (const line of lines) console.log(`  ${line}`);
  }
  await dummy.destroy();
}
