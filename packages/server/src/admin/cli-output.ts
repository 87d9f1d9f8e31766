import { formatBytes } from '@lockit/contract';
import type { AdminUserView } from './account-admin';

/** The kinds of second factor an account has, never a seed or a key. */
const TWO_FACTOR_LABELS: Record<AdminUserView['twoFactor'], string> = {
  none: 'none',
  totp: 'app',
  webauthn: 'key',
  both: 'app+key',
};

const when = (epochMs: number | null) =>
  epochMs === null ? '-' : new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ');

/** The users table lockit-admin prints: one line per account, columns padded to fit. */
export function formatUsersTable(users: readonly AdminUserView[]): string {
  if (users.length === 0) return 'No accounts yet.';
  const header = ['USERNAME', 'E-MAIL', 'CREATED (UTC)', 'LAST SEEN (UTC)', 'VERIFIED', 'DISABLED', '2FA', 'ITEMS', 'SIZE', 'ID'];
  const rows = users.map((user) => [
    user.username,
    user.email,
    when(user.createdAt),
    when(user.lastSeenAt),
    user.verified ? 'yes' : 'no',
    user.disabled ? 'yes' : 'no',
    TWO_FACTOR_LABELS[user.twoFactor],
    String(user.items),
    formatBytes(user.bytes),
    user.id,
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line), '', `${users.length} account${users.length === 1 ? '' : 's'}`].join('\n');
}

/** The JSON form (`users --json`): the same fields as the admin API, times as ISO strings. */
export function usersAsJson(users: readonly AdminUserView[]): string {
  const iso = (epochMs: number | null) => (epochMs === null ? null : new Date(epochMs).toISOString());
  return JSON.stringify(
    users.map((user) => ({ ...user, createdAt: iso(user.createdAt), lastSeenAt: iso(user.lastSeenAt) })),
    null,
    2,
  );
}

export const CLI_HELP = `lockit-admin: administer a Lockit server without touching its database.
Run from the repository: npm run admin -- <command> [options]
It reads the same environment as the server (DATABASE_URL, DATA_DIR, SMTP_URL, REDIS_URL...).

Commands
  users [--json]                 list accounts: name, e-mail, created, last seen, verified,
                                 disabled, second factor (none, app, key, app+key), item
                                 count and size (never vault content)
  invite [--email <address>] [--origin <url>]
                                 make an invitation and print its sign-up link (mailed too
                                 when an address is given and SMTP_URL is set)
  disable <account>              the account cannot sign in; its sessions end at once
  enable <account>               let a disabled account sign in again
  delete <account> --yes         delete the account and everything of it, for good
  end-sessions <account>         sign the account out everywhere
  diagnostics                    version, database, migrations, mail, Redis: a text block
                                 to paste into a bug report (no secrets)
  hash-token [token]             print the Argon2id hash to put in ADMIN_TOKEN; without a
                                 token, make a strong one and print it once
  help                           this text

<account> is a username, an e-mail address or a user id.
Exit codes: 0 done, 1 failed (e.g. no such account), 2 wrong usage.`;
