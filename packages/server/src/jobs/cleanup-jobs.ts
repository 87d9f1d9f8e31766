import type { AppContext } from '../app-context';
import { createExpiredRowsRepository } from '../db/repositories/expired-rows-repository';
import { createAttachmentStore } from '../attachments/attachment-store';
import { purgeExpiredTrash, TRASH_PURGE_INTERVAL_MS } from '../vault/trash-purge';
import { CLEANUP_BATCH, deleteInBatches } from './delete-in-batches';
import type { Job } from './job-scheduler';
import { deleteEndedAdminSessions } from '../admin/admin-sessions';

const HOUR_MS = 60 * 60 * 1000;

/** The cleanup jobs, by name: what the job table, the logs and the diagnostics call them. */
export const JOB_NAMES = [
  'trash-purge',
  'expired-codes',
  'expired-sessions',
  'unverified-accounts',
  'expired-share-links',
] as const;
export type JobName = (typeof JOB_NAMES)[number];

/** How often each job runs (once at each start, then on this interval, by one process at a time). */
export const DEFAULT_JOB_INTERVALS_MS: Record<JobName, number> = {
  'trash-purge': TRASH_PURGE_INTERVAL_MS,
  'expired-codes': HOUR_MS,
  'expired-sessions': HOUR_MS,
  'unverified-accounts': HOUR_MS,
  'expired-share-links': HOUR_MS,
};

type CleanupContext = Pick<AppContext, 'db' | 'repos' | 'config' | 'now'> & Partial<Pick<AppContext, 'live' | 'attachments'>>;

/**
 * One-time things past their lifetime, all already refused: verification codes, pending
 * sign-ins awaiting a second factor, unanswered WebAuthn challenges, and key rotations never
 * committed (with their staged parts).
 */
export async function deleteExpiredCodes(
  ctx: CleanupContext,
  signal: AbortSignal,
): Promise<{ codes: number; pendingSignIns: number; webauthnChallenges: number; keyRotations: number }> {
  const rows = createExpiredRowsRepository(ctx.db);
  const now = ctx.now();
  const codes = await deleteInBatches(() => rows.deleteExpiredCodes(now, CLEANUP_BATCH), signal);
  const pendingSignIns = signal.aborted
    ? 0
    : await deleteInBatches(() => rows.deleteExpiredPendingSignIns(now, CLEANUP_BATCH), signal);
  const webauthnChallenges = signal.aborted
    ? 0
    : await deleteInBatches(() => rows.deleteExpiredWebauthnChallenges(now, CLEANUP_BATCH), signal);
  const keyRotations = signal.aborted
    ? 0
    : await deleteInBatches(
        () => ctx.db.transaction().execute((trx) => rows.deleteExpiredKeyRotations(now, CLEANUP_BATCH, trx)),
        signal,
      );
  return { codes, pendingSignIns, webauthnChallenges, keyRotations };
}

/**
 * Sessions past their idle or absolute limit (session-service.ts refuses them already), with
 * their retired refresh tokens, and retired refresh tokens of live sessions once no browser
 * can hold them any more. A retired token is kept for reuse detection (decision 0006): a
 * copy presented again ends the session. Its cookie lived at most `refreshTokenIdleMs` from
 * when the token was issued, which was before it was retired; so once retired longer than
 * that (and longer than the race grace), no browser sends it, and it can only be deleted.
 * Also the admin page's sessions past their idle or absolute limit.
 */
export async function deleteExpiredSessions(
  ctx: CleanupContext,
  signal: AbortSignal,
): Promise<{ sessions: number; retiredTokens: number; adminSessions: number }> {
  const rows = createExpiredRowsRepository(ctx.db);
  const now = ctx.now();
  const sessions = await deleteInBatches(
    () =>
      ctx.db
        .transaction()
        .execute(async (trx) => rows.deleteSessions(await rows.findExpiredSessions(now, CLEANUP_BATCH, trx), trx)),
    signal,
  );
  const { refreshTokenIdleMs, refreshReuseGraceMs } = ctx.config.timing;
  const retiredCutoff = now - Math.max(refreshTokenIdleMs, refreshReuseGraceMs);
  const retiredTokens = signal.aborted
    ? 0
    : await deleteInBatches(() => rows.deleteRetiredTokens(retiredCutoff, CLEANUP_BATCH), signal);
  // Few rows (one per operator sign-in), so one statement; sign-in deletes them too.
  const adminSessions = signal.aborted ? 0 : await deleteEndedAdminSessions(ctx.db, now);
  return { sessions, retiredTokens, adminSessions };
}

/**
 * Accounts still unverified UNVERIFIED_ACCOUNT_HOURS after sign-up, with everything of
 * theirs: their name and e-mail are free for a new sign-up once the row is gone.
 */
export async function deleteUnverifiedAccounts(ctx: CleanupContext, signal: AbortSignal): Promise<{ accounts: number }> {
  const rows = createExpiredRowsRepository(ctx.db);
  const cutoff = ctx.now() - ctx.config.unverifiedAccountHours * HOUR_MS;
  const accounts = await deleteInBatches(
    () =>
      ctx.db
        .transaction()
        .execute(async (trx) =>
          rows.deleteUnverifiedUsers(await rows.findUnverifiedUsers(cutoff, CLEANUP_BATCH, trx), cutoff, trx),
        ),
    signal,
  );
  return { accounts };
}

/**
 * Share links past their expiry (decision 0078), with their ciphertext and a shared file's
 * bytes (decision 0081); they are already refused, this frees the space and leaves no
 * ciphertext behind longer than an hour.
 */
export async function deleteExpiredShareLinks(ctx: CleanupContext, signal: AbortSignal): Promise<{ shareLinks: number }> {
  const now = ctx.now();
  const store = ctx.attachments ?? createAttachmentStore(ctx.config.database, ctx.db);
  const shareLinks = await deleteInBatches(async () => {
    const deleted = await ctx.repos.shareLinks.deleteExpired(now, CLEANUP_BATCH);
    // A shared file's bytes go with its link (beside SQLite; PostgreSQL's went with the row).
    await store.shared.discard(deleted);
    return deleted.length;
  }, signal);
  return { shareLinks };
}

/** The jobs buildApp schedules; `intervalsMs` overrides the defaults (tests shorten them). */
export function cleanupJobs(ctx: CleanupContext, intervalsMs: Partial<Record<JobName, number>> = {}): Job[] {
  const every = (name: JobName) => intervalsMs[name] ?? DEFAULT_JOB_INTERVALS_MS[name];
  return [
    {
      name: 'trash-purge',
      intervalMs: every('trash-purge'),
      run: async (signal) => ({ entries: await purgeExpiredTrash(ctx, signal) }),
    },
    { name: 'expired-codes', intervalMs: every('expired-codes'), run: (signal) => deleteExpiredCodes(ctx, signal) },
    { name: 'expired-sessions', intervalMs: every('expired-sessions'), run: (signal) => deleteExpiredSessions(ctx, signal) },
    {
      name: 'unverified-accounts',
      intervalMs: every('unverified-accounts'),
      run: (signal) => deleteUnverifiedAccounts(ctx, signal),
    },
    {
      name: 'expired-share-links',
      intervalMs: every('expired-share-links'),
      run: (signal) => deleteExpiredShareLinks(ctx, signal),
    },
  ];
}
