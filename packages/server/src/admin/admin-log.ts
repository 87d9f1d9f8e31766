/** The part of a pino logger the admin code writes to (the server's, or the CLI's on stderr). */
export interface AdminLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export type AdminAction =
  | 'sign-in'
  | 'sign-in-refused'
  | 'sign-out'
  | 'list-users'
  | 'invite'
  | 'disable'
  | 'enable'
  | 'delete'
  | 'end-sessions'
  | 'diagnostics';

/**
 * One line per admin action: what, on which account (its id only), and from where. Never a
 * token, an e-mail address, a name or anything of a vault.
 */
export function logAdminAction(
  log: AdminLog,
  action: AdminAction,
  details: { targetUserId?: string; via: 'api' | 'cli'; ip?: string; outcome?: string } = { via: 'api' },
): void {
  const fields = { adminAction: action, ...details };
  if (action === 'sign-in-refused') log.warn(fields, 'admin: sign-in refused');
  else log.info(fields, `admin: ${action}`);
}
