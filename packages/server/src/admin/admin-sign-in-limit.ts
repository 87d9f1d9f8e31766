import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitSettings } from '../config/rate-limit-settings';
import { tooMany } from '../security/rate-limits';

/**
 * Admin sign-ins per address, shared through Redis when configured (memory otherwise, and as
 * the insurance while Redis is away). Every attempt counts, right or wrong: each costs an
 * Argon2 verify, so the limit also bounds the CPU one address can spend.
 */
export function createAdminSignInLimit(settings: RateLimitSettings, redis: Redis | undefined) {
  const options = {
    keyPrefix: `${settings.keyPrefix}:admin-sign-in-ip`,
    points: settings.adminSignInPerIp.points,
    duration: settings.adminSignInPerIp.durationSeconds,
  };
  const limiter = redis
    ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: new RateLimiterMemory(options) })
    : new RateLimiterMemory(options);
  return {
    /** Counts one attempt; 429 with Retry-After over the limit. */
    async hit(ip: string): Promise<void> {
      try {
        await limiter.consume(ip);
      } catch (rejection) {
        throw rejection instanceof RateLimiterRes ? tooMany(rejection.msBeforeNext) : rejection;
      }
    },
  };
}

export type AdminSignInLimit = ReturnType<typeof createAdminSignInLimit>;
