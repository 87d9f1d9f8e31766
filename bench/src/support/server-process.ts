import { LogCodeInbox, startServerProcess, type ServerDatabase, type ServerProcess } from '@lockit/test-support';

export { repoRoot, webDist, type DatabaseKind as DbKind, type ServerProcess } from '@lockit/test-support';

export interface LockitServerOptions {
  /** DATABASE_URL and DATA_DIR: a database from `createServerDatabase`. */
  db: ServerDatabase;
  /** `info` while seeding (the development mailer logs verification codes at info). */
  logLevel?: 'info' | 'warn';
  env?: Record<string, string>;
  onLine?: (line: string) => void;
}

/** The production server exactly as `npm run serve` runs it, on the built web app. */
export function startLockitServer(options: LockitServerOptions): Promise<ServerProcess> {
  return startServerProcess({
    webApp: true,
    logLevel: options.logLevel ?? 'warn',
    env: { ...options.db.env, SERVER_SECRET: 'bench-secret-bench-secret-bench-secret-0123', ...options.env },
    ...(options.onLine ? { onLine: options.onLine } : {}),
    // BENCH_PROFILE_DIR: a V8 CPU profile of each server process, to find where time goes.
    ...(process.env.BENCH_PROFILE_DIR ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] } : {}),
  });
}

/**
 * A server for seeding accounts through the API: at info level, so the development mailer's
 * codes are in its log (read by `inbox`), and with TRUST_PROXY, so each account can come from
 * an address of its own and the per-IP sign-up limits see many clients rather than one.
 */
export async function startSeedingServer(db: ServerDatabase): Promise<{ server: ServerProcess; inbox: LogCodeInbox }> {
  const inbox = new LogCodeInbox();
  const server = await startLockitServer({ db, logLevel: 'info', env: { TRUST_PROXY: '1' }, onLine: inbox.onLine });
  return { server, inbox };
}
