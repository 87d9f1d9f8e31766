import type { AdminTwoFactor } from '@lockit/contract';
import type { Db } from '../db/schema';
import type { Repositories } from '../db/repositories/index';
import type { AdminUserRow } from '../db/repositories/user-admin-repository';
import { deleteAccount } from '../identity/delete-account';
import type { AttachmentStore } from '../attachments/attachment-store';
import { foldName } from '../identity/fold-name';

/** What account administration needs; knows no HTTP (the admin routes and lockit-admin share it). */
export interface AccountAdminDeps {
  db: Db;
  repos: Repositories;
  now: () => number;
  /** Where the accounts' attachment content lives, so a deletion frees it too. */
  attachments: AttachmentStore;
}

/** An account as the operator sees it; times are epoch milliseconds. Never vault content. */
export interface AdminUserView {
  id: string;
  username: string;
  email: string;
  createdAt: number;
  lastSeenAt: number | null;
  verified: boolean;
  disabled: boolean;
  /** Entries, Trash included. */
  items: number;
  /** Bytes of ciphertext of the entries and their history. */
  bytes: number;
  twoFactor: AdminTwoFactor;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function listUsers(deps: AccountAdminDeps): Promise<AdminUserView[]> {
  const [rows, usage] = await Promise.all([deps.repos.userAdmin.list(), deps.repos.usage.usageByUser()]);
  return rows.map((row) => toView(row, usage.get(row.id) ?? { items: 0, bytes: 0 }));
}

export async function getUser(deps: AccountAdminDeps, id: string): Promise<AdminUserView | undefined> {
  const row = await deps.repos.userAdmin.findById(id);
  return row && toView(row, await deps.repos.usage.usage(id));
}

/** An account by id, username or e-mail (case-insensitive, as sign-in folds them). */
export async function findUser(deps: AccountAdminDeps, reference: string): Promise<AdminUserRow | undefined> {
  const trimmed = reference.trim();
  if (trimmed === '') return undefined;
  if (UUID.test(trimmed)) {
    const byId = await deps.repos.userAdmin.findById(trimmed.toLowerCase());
    if (byId) return byId;
  }
  return deps.repos.userAdmin.findByFoldedName(foldName(trimmed));
}

/** What an action did: `unchanged` when the account was already in that state. */
export type AdminOutcome = 'done' | 'unchanged' | 'not-found';

/**
 * Disables an account: it cannot sign in, and every session of it ends in the same
 * transaction, so its cookies fail on the very next request on every process.
 */
export async function disableUser(deps: AccountAdminDeps, userId: string): Promise<AdminOutcome> {
  return deps.db.transaction().execute(async (trx) => {
    if (!(await deps.repos.userAdmin.findById(userId, trx))) return 'not-found';
    const changed = await deps.repos.userAdmin.setDisabled(userId, deps.now(), trx);
    await deps.repos.sessions.deleteByUserId(userId, trx);
    return changed ? 'done' : 'unchanged';
  });
}

/** Lets a disabled account sign in again (its old sessions stay ended). */
export async function enableUser(deps: AccountAdminDeps, userId: string): Promise<AdminOutcome> {
  if (!(await deps.repos.userAdmin.findById(userId))) return 'not-found';
  return (await deps.repos.userAdmin.setDisabled(userId, null)) ? 'done' : 'unchanged';
}

/** Ends every session of an account (signs it out everywhere); answers how many there were. */
export async function endUserSessions(deps: AccountAdminDeps, userId: string): Promise<number | 'not-found'> {
  return deps.db.transaction().execute(async (trx) => {
    if (!(await deps.repos.userAdmin.findById(userId, trx))) return 'not-found';
    const count = await deps.repos.userAdmin.countSessions(userId, trx);
    await deps.repos.sessions.deleteByUserId(userId, trx);
    return count;
  });
}

/** Deletes the account and everything of it, exactly as the user's own delete-account does. */
export async function deleteUser(deps: AccountAdminDeps, userId: string): Promise<AdminOutcome> {
  if (!(await deps.repos.userAdmin.findById(userId))) return 'not-found';
  await deleteAccount(deps, userId);
  return 'done';
}

function toView(row: AdminUserRow, usage: { items: number; bytes: number }): AdminUserView {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    verified: row.verified_at !== null,
    disabled: row.disabled_at !== null,
    items: usage.items,
    bytes: usage.bytes,
    twoFactor: twoFactorOf(Boolean(Number(row.totp_on)), Boolean(Number(row.has_webauthn))),
  };
}

function twoFactorOf(totp: boolean, webauthn: boolean): AdminTwoFactor {
  if (totp && webauthn) return 'both';
  if (totp) return 'totp';
  return webauthn ? 'webauthn' : 'none';
}
