import { createAttachmentStore } from '../attachments/attachment-store';
import { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config';
import { loadConfig } from '../config/load-config';
import { createDatabase } from '../db/create-database';
import { migrateToLatest } from '../db/migrate';
import { createRepositories } from '../db/repositories/index';
import { createInvite } from '../identity/invites';
import { createSmtpMailer } from '../mail/smtp-mailer';
import type { Mailer } from '../mail/mailer';
import {
  deleteUser,
  disableUser,
  enableUser,
  endUserSessions,
  findUser,
  listUsers,
  type AccountAdminDeps,
} from './account-admin';
import { logAdminAction, type AdminAction, type AdminLog } from './admin-log';
import { ADMIN_TOKEN_MIN_LENGTH, hashAdminToken, newAdminToken } from './admin-token';
import { formatUsersTable, usersAsJson } from './cli-output';
import { describeRedis } from './admin-context';
import { collectDiagnostics, formatDiagnostics } from './diagnostics';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
}

export interface CliFlags {
  email?: string | undefined;
  origin?: string | undefined;
  yes?: boolean | undefined;
  json?: boolean | undefined;
}

/** Wrong usage (unknown command, missing argument): exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A failure the operator can act on (no such account...): its message is printed as is, exit code 1. */
export class CommandError extends Error {
  override name = 'CommandError';
}

const ACCOUNT_COMMANDS = ['disable', 'enable', 'delete', 'end-sessions'] as const;
const COMMANDS = ['users', 'invite', ...ACCOUNT_COMMANDS, 'diagnostics', 'hash-token', 'help'];

export async function runCommand(command: string, args: string[], flags: CliFlags, io: CliIo): Promise<void> {
  if (!COMMANDS.includes(command)) throw new UsageError(`Unknown command "${command}". Commands: ${COMMANDS.join(', ')}.`);
  if (command === 'hash-token') return hashToken(args, io);
  const expected = (ACCOUNT_COMMANDS as readonly string[]).includes(command) ? 1 : 0;
  if (args.length !== expected) {
    throw new UsageError(
      expected === 1
        ? `${command} needs one account: a username, an e-mail address or a user id.`
        : `${command} takes no argument.`,
    );
  }
  const config = await loadConfig(io.env);
  const db = createDatabase(config.database);
  try {
    await migrateToLatest(db, config.database.kind);
    const deps: AccountAdminDeps = {
      db,
      repos: createRepositories(db),
      now: Date.now,
      attachments: createAttachmentStore(config.database, db),
    };
    const log = stderrLog(io);
    const audit = (action: AdminAction, targetUserId?: string, outcome?: string) =>
      logAdminAction(log, action, { via: 'cli', ...(targetUserId ? { targetUserId } : {}), ...(outcome ? { outcome } : {}) });
    switch (command) {
      case 'users': {
        const users = await listUsers(deps);
        audit('list-users');
        io.out(flags.json ? usersAsJson(users) : formatUsersTable(users));
        return;
      }
      case 'invite':
        return await invite(config, deps, flags, io, audit);
      case 'diagnostics': {
        const text = formatDiagnostics(await collectDiagnostics({ ...deps, config, redisStatus: () => redisStatus(config) }));
        audit('diagnostics');
        io.out(text);
        return;
      }
      default:
        return await accountCommand(command as (typeof ACCOUNT_COMMANDS)[number], args[0]!, flags, deps, io, audit);
    }
  } finally {
    await db.destroy();
  }
}

async function accountCommand(
  command: (typeof ACCOUNT_COMMANDS)[number],
  reference: string,
  flags: CliFlags,
  deps: AccountAdminDeps,
  io: CliIo,
  audit: (action: AdminAction, targetUserId?: string, outcome?: string) => void,
): Promise<void> {
  if (command === 'delete' && !flags.yes) {
    throw new UsageError(`delete removes the account and its whole vault for good: add --yes to confirm.`);
  }
  const user = await findUser(deps, reference);
  if (!user) throw new CommandError(`No account matches "${reference}" (give a username, an e-mail address or a user id).`);
  const who = `${user.username} (${user.id})`;
  switch (command) {
    case 'disable': {
      const outcome = await disableUser(deps, user.id);
      audit('disable', user.id, outcome);
      io.out(outcome === 'done' ? `Disabled ${who}; its sessions have ended.` : `${who} was already disabled.`);
      return;
    }
    case 'enable': {
      const outcome = await enableUser(deps, user.id);
      audit('enable', user.id, outcome);
      io.out(outcome === 'done' ? `Enabled ${who}: it can sign in again.` : `${who} was not disabled.`);
      return;
    }
    case 'end-sessions': {
      const ended = await endUserSessions(deps, user.id);
      audit('end-sessions', user.id);
      io.out(`Ended ${ended === 'not-found' ? 0 : ended} session(s) of ${who}.`);
      return;
    }
    case 'delete': {
      await deleteUser(deps, user.id);
      audit('delete', user.id);
      io.out(`Deleted ${who} and everything of it.`);
      return;
    }
  }
}

async function invite(
  config: AppConfig,
  deps: AccountAdminDeps,
  flags: CliFlags,
  io: CliIo,
  audit: (action: AdminAction) => void,
): Promise<void> {
  const origin = flags.origin === undefined ? undefined : parseOrigin(flags.origin);
  const mailer = cliMailer(config);
  try {
    const created = await createInvite(
      { config, repos: deps.repos, mailer, now: deps.now },
      { invitedBy: null, ...(flags.email !== undefined ? { email: flags.email } : {}), ...(origin ? { origin } : {}) },
    ).catch((error: unknown) => {
      // Refusals of the invite rules (an address outside the allowed domains...) are for the operator.
      throw error instanceof Error && 'statusCode' in error ? new CommandError(error.message) : error;
    });
    audit('invite');
    io.out(`Invitation link (works once, until ${new Date(created.expiresAt).toISOString()}):`);
    io.out(created.url);
    if (created.email)
      io.out(created.mailed ? `Mailed to ${created.email}.` : `Not mailed (no SMTP or it failed): hand the link over yourself.`);
  } finally {
    await mailer.close();
  }
}

function parseOrigin(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
  } catch {
    // refused below
  }
  throw new UsageError(`--origin must be the web app's address, such as https://vault.example.com.`);
}

/** Mail for `invite --email` when SMTP is set; without SMTP createInvite never sends, and this says so if it did. */
function cliMailer(config: AppConfig): Mailer {
  if (config.smtpUrl) return createSmtpMailer(config.smtpUrl, config.mailFrom, Math.round(config.timing.codeLifetimeMs / 60_000));
  const noSmtp = async () => {
    throw new Error('SMTP_URL is not set: nothing can be mailed.');
  };
  return {
    sendVerificationCode: noSmtp,
    sendInvite: noSmtp,
    sendSignUpAttempt: noSmtp,
    sendSignInAlert: noSmtp,
    close: async () => {},
  };
}

function hashToken(args: string[], io: CliIo): Promise<void> {
  if (args.length > 1) throw new UsageError('hash-token takes at most one token.');
  const given = args[0];
  if (given !== undefined && given.length < ADMIN_TOKEN_MIN_LENGTH) {
    throw new UsageError(
      `An admin token must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters; leave it out to get a strong one.`,
    );
  }
  const token = given ?? newAdminToken();
  return hashAdminToken(token).then((hash) => {
    if (given === undefined) {
      io.out(`Admin token (shown once; sign in to /admin with it, keep it in a password manager):\n${token}\n`);
    }
    io.out(`Put this in the server's environment (in a .env or compose file, write each $ as $$):\nADMIN_TOKEN='${hash}'`);
  });
}

/** Redis as the diagnostics show it, by one PING with a short timeout; never its URL. */
async function redisStatus(config: AppConfig): Promise<string> {
  if (!config.redisUrl) return describeRedis(undefined, undefined);
  const redis = new Redis(config.redisUrl, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1_000,
    commandTimeout: 1_000,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
    return 'configured, ready';
  } catch {
    return 'configured, unreachable from lockit-admin';
  } finally {
    redis.disconnect();
  }
}

/** The audit lines of the CLI: pino's JSON line format, on stderr so stdout stays the answer. */
function stderrLog(io: CliIo): AdminLog {
  const write = (level: number) => (fields: Record<string, unknown>, msg: string) =>
    io.err(JSON.stringify({ level, time: Date.now(), pid: process.pid, ...fields, msg }));
  return { info: write(30), warn: write(40) };
}
