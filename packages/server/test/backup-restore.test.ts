import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import {
  ApiClient,
  createVerifiedAccount,
  logInWithKeys,
  repoRoot,
  sealEntry,
  startSmtpSink,
  type SmtpSink,
  type VerifiedAccount,
} from '@lockit/test-support';
import { checkToolVersion, findPostgresTool } from '../src/backup/postgres-tools';
import { createProcessDatabase, startServerProcess, type ProcessDatabase, type ServerProcess } from './helpers/server-process';
import { adminQuery, PG_URL, TEST_DB_KIND } from './helpers/test-database';

/**
 * `npm run backup` and `npm run restore` as an operator runs them (the CLI through tsx, with
 * the server's environment), against a real server process taking writes: the backup holds
 * every write acknowledged before it started, a restore into a fresh target passes its checks
 * and a server on it signs the account in, and files that are not Lockit backups (or are
 * damaged, or are from a newer Lockit, or hold objects or tables a Lockit dump never has) are
 * refused without changing the target. On PostgreSQL the restore runs as a role that is not
 * a superuser and owns only its database.
 */
const run = promisify(execFile);
const WRITERS = 4;

let sink: SmtpSink;
let source: ProcessDatabase;
let server: ServerProcess | undefined;
let accounts: VerifiedAccount[] = [];
const workDir = mkdtempSync(path.join(tmpdir(), 'lockit-backup-test-'));
/** The fresh target restores go to: its own folder, and on PostgreSQL its own database. */
let target: {
  env: Record<string, string>;
  query: (sql: string) => Promise<Array<Record<string, unknown>>>;
  drop: () => Promise<void>;
};
let backupFile = '';
const acked = new Set<string>();
const sent = new Set<string>();
let ackedBeforeBackup = new Set<string>();

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(args: string[], env: Record<string, string>): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', 'packages/server/src/backup/backup-main.ts', ...args],
      { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

async function createTarget(): Promise<typeof target> {
  const dataDir = mkdtempSync(path.join(workDir, 'target-'));
  if (TEST_DB_KIND === 'sqlite') {
    const file = path.join(dataDir, 'lockit.sqlite');
    return {
      env: { DATA_DIR: dataDir },
      async query(text) {
        const database = new SQLite(file, { readonly: true, fileMustExist: true });
        try {
          return database.prepare(text).all() as Array<Record<string, unknown>>;
        } finally {
          database.close();
        }
      },
      drop: async () => {},
    };
  }
  // A database of its own, so the dump's schema name (the source's) is free there, owned by
  // a role that is no superuser: the restore (and the server after it) must need no more.
  const name = `lockit_restore_${randomBytes(5).toString('hex')}`;
  await adminQuery(`CREATE ROLE ${name} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE`);
  await adminQuery(`CREATE DATABASE ${name} OWNER ${name}`);
  const url = new URL(PG_URL);
  url.username = name;
  url.pathname = `/${name}`;
  url.searchParams.set('options', `-c search_path=${source.schema}`);
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    query: async (text) => (await client.query(text)).rows as Array<Record<string, unknown>>,
    async drop() {
      await client.end();
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await adminQuery(`DROP ROLE IF EXISTS ${name}`);
    },
  };
}

/**
 * Everything a refused restore must leave as it was. With a server running on the target
 * (`live`), its heartbeat and jobs write to SQLite's WAL at any moment: the files are then
 * compared by name only, the rows in full.
 */
async function targetState({ live = false } = {}): Promise<unknown> {
  const entries = await target.query('select id, revision from entries order by id');
  const migrations = await target.query('select name from kysely_migration order by name');
  const users = await target.query('select id, username from users order by id');
  const files =
    TEST_DB_KIND === 'sqlite'
      ? readdirSync(target.env.DATA_DIR!)
          .filter((name) => name.startsWith('lockit.sqlite'))
          .sort()
          .map((name) => [
            name,
            live
              ? 'written by the running server'
              : createHash('sha256')
                  .update(readFileSync(path.join(target.env.DATA_DIR!, name)))
                  .digest('hex'),
          ])
      : [];
  return { entries, migrations, users, files };
}

/** Adds entries one after another until told to stop; records each id sent and each acknowledged. */
async function writer(account: VerifiedAccount, worker: number, stop: { now: boolean }): Promise<void> {
  for (let n = 0; !stop.now; n += 1) {
    const body = await sealEntry(account.vaultKey, { serviceName: `s${worker}-${n}`, username: 'u', password: 'p' });
    sent.add(body.id);
    const answer = await account.client.post(apiPaths.addEntry, body);
    expect(answer.status, answer.raw).toBe(201);
    acked.add(body.id);
  }
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

beforeAll(async () => {
  sink = await startSmtpSink();
  source = await createProcessDatabase();
  // No SERVER_SECRET: the server makes <DATA_DIR>/server-secret, which the backup must copy.
  server = await startServerProcess({ ...source.env, SMTP_URL: sink.url });
  accounts = await Promise.all([0, 1].map(() => createVerifiedAccount(server!.url, sink.inbox)));
  target = await createTarget();
}, 60_000);

afterAll(async () => {
  await server?.stop('SIGKILL');
  await target?.drop();
  await source?.drop();
  await sink?.close();
  rmSync(workDir, { recursive: true, force: true });
});

describe('npm run backup under a write load', () => {
  it('writes a 0600 timestamped copy holding every entry acknowledged before it started, and the server secret', async () => {
    const stop = { now: false };
    const writers = Array.from({ length: WRITERS }, (_, i) => writer(accounts[i % accounts.length]!, i, stop));
    await until(() => acked.size >= 40, 15_000);
    ackedBeforeBackup = new Set(acked);
    const outDir = path.join(workDir, 'backups');
    const result = await cli(['backup', '--out', outDir], source.env);
    const ackedDuringBackup = acked.size - ackedBeforeBackup.size;
    stop.now = true;
    await Promise.all(writers);

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(ackedDuringBackup, 'writes acknowledged while the backup ran').toBeGreaterThan(0);
    const extension = TEST_DB_KIND === 'sqlite' ? 'sqlite' : 'dump';
    const match = new RegExp(
      `^backup ok: (\\S+/lockit-\\d{8}-\\d{6}\\.${extension}) .*: (\\d+) users, (\\d+) entries, (\\d+) folders; migrations 0001-initial … \\S+ \\(\\d+\\); server secret: (\\S+)\\n$`,
    ).exec(result.stdout);
    expect(match, result.stdout).not.toBeNull();
    backupFile = match![1]!;
    expect(path.dirname(backupFile)).toBe(outDir);
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);
    const secretCopy = match![5]!;
    expect(statSync(secretCopy).mode & 0o777).toBe(0o600);
    expect(readFileSync(secretCopy, 'utf8')).toBe(readFileSync(path.join(source.dataDir, 'server-secret'), 'utf8'));
    expect(Number(match![2])).toBe(accounts.length);
    const reportedEntries = Number(match![3]);
    expect(reportedEntries).toBeGreaterThanOrEqual(ackedBeforeBackup.size);
    expect(reportedEntries).toBeLessThanOrEqual(sent.size);

    if (TEST_DB_KIND === 'sqlite') {
      // The copy alone, without any -wal, is the snapshot.
      const copy = new SQLite(backupFile, { readonly: true, fileMustExist: true });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
        const ids = new Set((copy.prepare('select id from entries').all() as Array<{ id: string }>).map((row) => row.id));
        expect(ids.size).toBe(reportedEntries);
        for (const id of ackedBeforeBackup) expect(ids.has(id), `acknowledged entry ${id}`).toBe(true);
        for (const id of ids) expect(sent.has(id), `unknown entry ${id}`).toBe(true);
      } finally {
        copy.close();
      }
    }
  }, 40_000);
});

describe('npm run restore', () => {
  it('restores into a fresh target: checked counts equal the backup, and a server on it signs the account in', async () => {
    expect(backupFile, 'the backup test ran first').not.toBe('');
    const result = await cli(['restore', backupFile], target.env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const summary = /^restore ok: .*: (\d+) users, (\d+) entries, (\d+) folders;/m.exec(result.stdout);
    expect(summary, result.stdout).not.toBeNull();
    expect(result.stdout).toContain(`server secret: restored to ${path.join(target.env.DATA_DIR!, 'server-secret')}`);

    const ids = new Set((await target.query('select id from entries')).map((row) => row.id as string));
    expect(ids.size).toBe(Number(summary![2]));
    expect(await target.query('select count(*) as n from users')).toEqual([{ n: TEST_DB_KIND === 'sqlite' ? 2 : '2' }]);
    for (const id of ackedBeforeBackup) expect(ids.has(id), `acknowledged entry ${id}`).toBe(true);
    for (const id of ids) expect(sent.has(id), `unknown entry ${id}`).toBe(true);
    if (TEST_DB_KIND === 'sqlite') expect(await target.query('pragma integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    // The backup was taken while the source server ran: its heartbeat must not come back as a live server.
    expect(await target.query('select id from server_processes')).toEqual([]);
    if (TEST_DB_KIND === 'postgres') {
      expect(await target.query('select rolsuper from pg_roles where rolname = current_user')).toEqual([{ rolsuper: false }]);
    }

    const restored = await startServerProcess({ ...target.env, SMTP_URL: sink.url });
    try {
      const client = new ApiClient(restored.url);
      await logInWithKeys(client, accounts[0]!.account);
      const listed = await client.get(apiPaths.listEntries);
      expect(listed.status).toBe(200);
      const own = (listed.body.data as Array<{ id: string }>).map((entry) => entry.id);
      expect(own.length).toBeGreaterThan(0);
      for (const id of own) expect(ids.has(id)).toBe(true);

      // While that server runs, a restore into its database is refused and changes nothing.
      const before = await targetState({ live: true });
      const refused = await cli(['restore', backupFile], target.env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        TEST_DB_KIND === 'sqlite' ? /is in use .*stop every server/ : /servers are using this database/,
      );
      expect(refused.stderr).toContain('Nothing was changed.');
      expect(await targetState({ live: true })).toEqual(before);
    } finally {
      await restored.stop();
    }
  }, 40_000);

  it('refuses a foreign, damaged, foreign-schema or newer-version file and changes nothing', async () => {
    const before = await targetState();
    const cases = await refusedFiles();
    // Side by side: each refusal leaves the target untouched, so none can affect another.
    const results = await Promise.all(cases.map(({ file }) => cli(['restore', file], target.env)));
    cases.forEach(({ file, message }, i) => {
      expect(results[i]!.code, `${path.basename(file)}: ${results[i]!.stdout}`).toBe(1);
      expect(results[i]!.stderr, path.basename(file)).toMatch(message);
    });
    expect(await targetState(), 'a refused restore changed the target').toEqual(before);
    if (TEST_DB_KIND === 'sqlite') {
      const leftovers = readdirSync(target.env.DATA_DIR!).filter((name) => name.includes('.restore-'));
      expect(leftovers).toEqual([]);
    }
  }, 40_000);

  it.runIf(TEST_DB_KIND === 'postgres')('names the versions when pg_dump is older than the server', async () => {
    await expect(checkToolVersion(findPostgresTool('pg_dump'), 990_000)).rejects.toThrow(
      /pg_dump is version \d+ but the PostgreSQL server is 99: install the 99 client/,
    );
  });
});

/** Files restore must refuse, each with the message that says why. */
async function refusedFiles(): Promise<Array<{ file: string; message: RegExp }>> {
  const dir = mkdtempSync(path.join(workDir, 'refused-'));
  const text = path.join(dir, 'notes.txt');
  writeFileSync(text, 'not a backup at all\n'.repeat(200));
  const truncated = path.join(dir, `truncated${path.extname(backupFile)}`);
  copyFileSync(backupFile, truncated);
  truncateSync(truncated, Math.floor(statSync(backupFile).size / 2));
  const otherKind = path.join(dir, 'other-kind.bin');
  writeFileSync(otherKind, TEST_DB_KIND === 'sqlite' ? 'PGDMP\u0001\u000e' : 'SQLite format 3\u0000');
  const cases = [
    { file: text, message: /is not a Lockit backup/ },
    { file: otherKind, message: /is a (PostgreSQL|SQLite) backup but DATABASE_URL points to (an SQLite file|PostgreSQL)/ },
    { file: truncated, message: TEST_DB_KIND === 'sqlite' ? /failed SQLite's integrity check|is damaged/ : /is damaged/ },
  ];
  if (TEST_DB_KIND === 'sqlite') {
    const foreign = path.join(dir, 'other-app.sqlite');
    const other = new SQLite(foreign);
    other.exec('create table notes (id integer primary key, body text); insert into notes (body) values (1)');
    other.close();
    const newer = path.join(dir, 'newer.sqlite');
    copyFileSync(backupFile, newer);
    const future = new SQLite(newer);
    future
      .prepare('insert into kysely_migration (name, timestamp) values (?, ?)')
      .run('9999-from-the-future', new Date().toISOString());
    future.close();
    cases.push({ file: foreign, message: /is not a Lockit backup: it has no kysely_migration table/ });
    cases.push({
      file: newer,
      message: /was written by a newer Lockit \(migrations this version does not know: 9999-from-the-future\)/,
    });
    return cases;
  }
  // Dumps of other schemas, made with pg_dump directly: one of another app, one of a newer Lockit.
  const pgDump = findPostgresTool('pg_dump');
  const foreignSchema = `${source.schema}_other`;
  await adminQuery(`CREATE SCHEMA ${foreignSchema}; CREATE TABLE ${foreignSchema}.notes (id int primary key, body text)`);
  const foreign = path.join(dir, 'other-app.dump');
  await run(pgDump, ['--dbname', PG_URL, '--format=custom', '--schema', foreignSchema, '--file', foreign]);
  await adminQuery(`DROP SCHEMA ${foreignSchema} CASCADE`);
  await source.query(`insert into kysely_migration (name, timestamp) values ('9999-from-the-future', 'now')`);
  const newer = path.join(dir, 'newer.dump');
  await run(pgDump, ['--dbname', PG_URL, '--format=custom', '--schema', source.schema, '--file', newer]);
  await source.query(`delete from kysely_migration where name = '9999-from-the-future'`);
  // A Lockit dump someone added code to: a trigger function that would run at every sign-up.
  const s = source.schema;
  await source.query(
    `create function ${s}.leak() returns trigger language plpgsql as $$ begin return new; end $$;
     create trigger leak before insert on ${s}.users for each row execute function ${s}.leak();
     create view ${s}.everything as select * from ${s}.users`,
  );
  const withCode = path.join(dir, 'with-code.dump');
  await run(pgDump, ['--dbname', PG_URL, '--format=custom', '--schema', s, '--file', withCode]);
  await source.query(`drop view ${s}.everything; drop function ${s}.leak() cascade`);
  // One with a table of its own (and rows in it): restoring rows needs a table Lockit made.
  await source.query(`create table ${s}.stowaway (note text); insert into ${s}.stowaway values ('hello')`);
  const withTable = path.join(dir, 'with-table.dump');
  await run(pgDump, ['--dbname', PG_URL, '--format=custom', '--schema', s, '--file', withTable]);
  await source.query(`drop table ${s}.stowaway`);
  cases.push({ file: withCode, message: /holds objects a Lockit backup never has \(.*FUNCTION .*leak.*TRIGGER .*leak/ });
  cases.push({ file: withTable, message: /holds rows of tables Lockit's migrations do not make \(stowaway\)/ });
  cases.push({ file: foreign, message: /is not a Lockit backup: it has no kysely_migration table/ });
  cases.push({
    file: newer,
    message: /was written by a newer Lockit \(migrations this version does not know: 9999-from-the-future\)/,
  });
  return cases;
}
