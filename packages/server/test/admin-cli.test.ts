import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import argon2 from 'argon2';
import type { FastifyInstance } from 'fastify';
import { apiPaths } from '@lockit/contract';
import { createServerDatabase, repoRoot, startSmtpSink, type ServerDatabase, type SmtpSink } from '@lockit/test-support';
import { buildApp } from '../src/app';
import { ConfigError, loadConfig } from '../src/config/load-config';
import { createDatabase } from '../src/db/create-database';
import { migrateToLatest } from '../src/db/migrate';
import type { Db } from '../src/db/schema';
import type { DatabaseConfig } from '../src/config/app-config';
import { login, signedInUser, type TestAccount } from './helpers/accounts';
import { encryptEntry } from './helpers/entries';
import { newFolder } from './helpers/folders';
import { InjectClient } from './helpers/inject-client';
import { testConfig, type TestHarness } from './helpers/test-app';
import { createTestClock } from './helpers/test-clock';
import { PG_URL, TEST_DB_KIND } from './helpers/test-database';

/**
 * lockit-admin run as the operator runs it (`node --import tsx packages/server/src/admin/cli.ts`,
 * what `npm run admin --` does), as a process against the database a server uses.
 */
interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let database: ServerDatabase;
let db: Db;
let sink: SmtpSink;
let app: FastifyInstance;
const h = {} as TestHarness;

function admin(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/admin/cli.ts', ...args], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...database.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function userId(account: TestAccount): Promise<string> {
  return (await db.selectFrom('users').select('id').where('username', '=', account.username).executeTakeFirstOrThrow()).id;
}

/** Audit lines (JSON on stderr) of one run. */
function auditLines(run: Run): Array<Record<string, unknown>> {
  return run.stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

let alice: { account: TestAccount; client: InjectClient };
let bob: { account: TestAccount; client: InjectClient };
let entry: Awaited<ReturnType<typeof encryptEntry>>;
let folder: Awaited<ReturnType<typeof newFolder>>;

beforeAll(async () => {
  database = await createServerDatabase(TEST_DB_KIND, 'lockit-admin-cli');
  const config: DatabaseConfig =
    TEST_DB_KIND === 'sqlite'
      ? { kind: 'sqlite', file: database.sqliteFile }
      : { kind: 'postgres', url: PG_URL, searchPath: database.schema };
  db = createDatabase(config);
  await migrateToLatest(db, config.kind);
  sink = await startSmtpSink();
  const clock = createTestClock();
  app = await buildApp(testConfig(config, sink.url), { db, now: clock.now });
  await app.ready();
  Object.assign(h, { app, db, sink, clock, client: (ip?: string) => new InjectClient(app, ip) });
  alice = await signedInUser(h);
  bob = await signedInUser(h);
  entry = await encryptEntry(alice.account, { serviceName: 'Secret Bank', username: 'me', password: 'hunter2', notes: 'pin' });
  expect((await alice.client.post(apiPaths.addEntry, entry)).statusCode).toBe(201);
  folder = await newFolder(alice.account, 'Top Secret Folder');
  expect((await alice.client.post(apiPaths.folders, folder)).statusCode).toBe(201);
});

afterAll(async () => {
  await app?.close();
  await db?.destroy();
  await sink?.close();
  await database?.drop();
});

describe('lockit-admin', () => {
  it('users: a table of accounts with counts and sizes, and the same as JSON; never vault content', async () => {
    const [table, json] = await Promise.all([admin(['users']), admin(['users', '--json'])]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(
      /^USERNAME +E-MAIL +CREATED \(UTC\) +LAST SEEN \(UTC\) +VERIFIED +DISABLED +2FA +ITEMS +SIZE +ID\n/,
    );
    const aliceLine = table.stdout.split('\n').find((line) => line.startsWith(`${alice.account.username} `))!;
    expect(aliceLine).toMatch(
      new RegExp(`${alice.account.email} .* yes +no +none +1 +[\\d.]+ (B|KiB) +${await userId(alice.account)}$`),
    );
    expect(table.stdout).toContain('2 accounts');
    expect(json.code, json.stderr).toBe(0);
    const users = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(users.find((user) => user.username === alice.account.username)).toMatchObject({
      email: alice.account.email,
      verified: true,
      disabled: false,
      items: 1,
    });
    for (const run of [table, json]) {
      for (const secret of [entry.id, entry.serviceName, entry.password, entry.notes!, folder.id, folder.name, 'Secret Bank']) {
        expect(run.stdout + run.stderr).not.toContain(secret);
      }
      expect(auditLines(run)).toEqual([expect.objectContaining({ adminAction: 'list-users', via: 'cli' })]);
    }
  });

  it('disable ends every session and refuses sign-in; enable (by e-mail) lets the account in again', async () => {
    const id = await userId(bob.account);
    const disabled = await admin(['disable', bob.account.username.toUpperCase()]);
    expect(disabled.code).toBe(0);
    expect(disabled.stdout).toBe(`Disabled ${bob.account.username} (${id}); its sessions have ended.\n`);
    expect(auditLines(disabled)).toEqual([
      expect.objectContaining({ adminAction: 'disable', targetUserId: id, outcome: 'done' }),
    ]);
    expect((await bob.client.get(apiPaths.profile)).statusCode).toBe(401);
    const refused = await login(h.client(), bob.account);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe("This account is disabled. Contact the server's operator.");

    const enabled = await admin(['enable', bob.account.email]);
    expect(enabled.code).toBe(0);
    expect(enabled.stdout).toBe(`Enabled ${bob.account.username} (${id}): it can sign in again.\n`);
    expect((await login(bob.client, bob.account)).statusCode).toBe(200);
  });

  it('end-sessions signs an account out everywhere, by id', async () => {
    const id = await userId(alice.account);
    await login(h.client(), alice.account);
    const run = await admin(['end-sessions', id]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`Ended 2 session(s) of ${alice.account.username} (${id}).\n`);
    expect((await alice.client.get(apiPaths.profile)).statusCode).toBe(401);
  });

  it('delete needs --yes, then removes the account and everything of it', async () => {
    const doomed = await signedInUser(h);
    await doomed.client.post(
      apiPaths.addEntry,
      await encryptEntry(doomed.account, { serviceName: 'S', username: 'u', password: 'p' }),
    );
    const id = await userId(doomed.account);
    const unconfirmed = await admin(['delete', doomed.account.username]);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('add --yes to confirm');
    expect(await db.selectFrom('users').select('id').where('id', '=', id).execute()).toHaveLength(1);

    const deleted = await admin(['delete', doomed.account.username, '--yes']);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toBe(`Deleted ${doomed.account.username} (${id}) and everything of it.\n`);
    expect(await db.selectFrom('users').select('id').where('id', '=', id).execute()).toEqual([]);
    expect(await db.selectFrom('entries').select('id').where('user_id', '=', id).execute()).toEqual([]);
    expect((await doomed.client.get(apiPaths.profile)).statusCode).toBe(401);
  });

  it('invite prints a sign-up link; diagnostics print the text block with no secret', async () => {
    const [invite, diagnostics] = await Promise.all([
      admin(['invite', '--origin', 'https://vault.example.com']),
      admin(['diagnostics'], { SMTP_URL: 'smtps://mailer:hunter-smtp-pass@smtp.example.com:465' }),
    ]);
    expect(invite.code).toBe(0);
    expect(invite.stdout).toMatch(
      /^Invitation link \(works once, until [\d-]+T[\d:.]+Z\):\nhttps:\/\/vault\.example\.com\/signup\?invite=[\w-]{43}\n$/,
    );
    expect(auditLines(invite)[0]).toMatchObject({ adminAction: 'invite' });
    expect(invite.stderr).not.toContain('invite=');
    expect(diagnostics.code).toBe(0);
    expect(diagnostics.stdout).toMatch(/^Lockit diagnostics\nLockit version: /);
    expect(diagnostics.stdout).toContain(TEST_DB_KIND === 'sqlite' ? 'Database: SQLite' : 'Database: PostgreSQL');
    expect(diagnostics.stdout).toContain('Mail: SMTP (smtps, smtp.example.com:465, with credentials)');
    expect(diagnostics.stdout).not.toContain('hunter-smtp-pass');
    expect(diagnostics.stdout).not.toContain('mailer');
    expect(diagnostics.stdout).toMatch(/Accounts: \d+ \(0 unverified, 0 disabled\)/);
  });

  it('says what is wrong, with exit code 2 for wrong usage and 1 for a failure', async () => {
    const [unknownCommand, unknownUser, missing, badFlag, help] = await Promise.all([
      admin(['frobnicate']),
      admin(['disable', 'nobody-here']),
      admin(['enable']),
      admin(['users', '--bogus']),
      admin(['help']),
    ]);
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toContain('Unknown command "frobnicate". Commands: users, invite, disable');
    expect(unknownUser.code).toBe(1);
    expect(unknownUser.stderr).toBe('No account matches "nobody-here" (give a username, an e-mail address or a user id).\n');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('enable needs one account');
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toContain("Unknown option '--bogus'");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('hash-token [token]');
  });

  it('hash-token prints an Argon2id hash the server accepts, and makes a strong token when none is given', async () => {
    const chosen = 'my-own-admin-token-of-some-length';
    const [made, given, short] = await Promise.all([
      admin(['hash-token']),
      admin(['hash-token', chosen]),
      admin(['hash-token', 'short']),
    ]);
    expect(made.code).toBe(0);
    const [, token] = /shown once[^\n]*\n([A-Za-z0-9_-]{43})\n/.exec(made.stdout) ?? [];
    const hashOf = (run: Run) => /^ADMIN_TOKEN='(\$argon2id\$[^']+)'$/m.exec(run.stdout)?.[1] ?? '';
    expect(await argon2.verify(hashOf(made), token!)).toBe(true);
    expect(given.code).toBe(0);
    expect(given.stdout).not.toContain(chosen);
    expect(await argon2.verify(hashOf(given), chosen)).toBe(true);
    const config = await loadConfig({ DATA_DIR: database.dataDir, ADMIN_TOKEN: hashOf(given) });
    expect(config.adminTokenHash).toBe(hashOf(given));
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('at least 16 characters');
  });

  it('a plain ADMIN_TOKEN is refused at start, saying how to make the hash', async () => {
    const error = await loadConfig({ DATA_DIR: database.dataDir, ADMIN_TOKEN: 'plain-text-token-123456' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      'Invalid configuration: ADMIN_TOKEN must be the Argon2id hash of the admin token ($argon2id$v=19$...), not the token itself: make one with `npm run admin -- hash-token`.',
    );
    const run = await admin(['users'], { ADMIN_TOKEN: 'plain-text-token-123456' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('npm run admin -- hash-token');
    expect(run.stderr).not.toContain('plain-text-token-123456');
  });
});

describe('lockit-admin on a fresh data folder', () => {
  it('works before the server ever ran (it migrates like the server does)', async () => {
    const fresh = await createServerDatabase(TEST_DB_KIND, 'lockit-admin-fresh');
    try {
      const run = await admin(['users'], fresh.env);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('No accounts yet.\n');
    } finally {
      await fresh.drop();
    }
  });
});
