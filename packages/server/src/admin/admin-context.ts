import type { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config';
import type { Db } from '../db/schema';
import { createAdminSessions, type AdminSessions } from './admin-sessions';
import { createAdminSignInLimit, type AdminSignInLimit } from './admin-sign-in-limit';

/** What the admin routes share; exists only when ADMIN_TOKEN is set. */
export interface AdminContext {
  /** The Argon2id PHC hash of the admin token (never the token). */
  tokenHash: string;
  sessions: AdminSessions;
  signInLimit: AdminSignInLimit;
  redisStatus: () => string;
}

export function createAdminContext(
  config: AppConfig,
  db: Db,
  redis: Redis | undefined,
  now: () => number,
): AdminContext | undefined {
  if (!config.adminTokenHash) return undefined;
  return {
    tokenHash: config.adminTokenHash,
    sessions: createAdminSessions(db, now),
    signInLimit: createAdminSignInLimit(config.rateLimits, redis),
    redisStatus: () => describeRedis(config.redisUrl, redis),
  };
}

/** Redis as the diagnostics show it: whether it is configured and ready; never its URL. */
export function describeRedis(redisUrl: string | undefined, redis: Redis | undefined): string {
  if (!redisUrl && !redis) return 'not configured (rate limits live in each process)';
  if (!redis) return 'configured, not connected';
  return redis.status === 'ready' ? 'configured, ready' : `configured, not ready (${redis.status})`;
}
