import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { LimitWindow, RateLimitSettings } from '../config/rate-limit-settings';
import { HttpError } from '../http/http-error';

export type LimitedAction = 'prelogin' | 'create' | 'sendCode' | 'verifyCode';

/**
 * Rate limits and sign-in lockouts, per IP and per account. With Redis they are shared by
 * every server process (memory is the insurance when Redis is unreachable); without it they
 * live in this process. Account keys are hashed so the store never holds names or emails.
 */
export function createRateLimits(
  settings: RateLimitSettings,
  redis: Redis | undefined,
  /** Told which limiter refused, by its fixed name below (never a key): metrics count them. */
  onRefusal: RefusalListener = () => {},
) {
  const make = (name: string, points: number, durationSeconds: number): RateLimiterAbstract => {
    const options = { keyPrefix: `${settings.keyPrefix}:${name}`, points, duration: durationSeconds };
    if (!redis) return new RateLimiterMemory(options);
    return new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: new RateLimiterMemory(options) });
  };
  const windowed = (name: string, window: LimitWindow) => make(name, window.points, window.durationSeconds);

  const perAction: Record<LimitedAction, { ip: RateLimiterAbstract; account: RateLimiterAbstract }> = {
    prelogin: {
      ip: windowed('prelogin-ip', settings.preloginPerIp),
      account: windowed('prelogin-account', settings.preloginPerAccount),
    },
    create: { ip: windowed('create-ip', settings.createPerIp), account: windowed('create-account', settings.createPerAccount) },
    sendCode: {
      ip: windowed('send-code-ip', settings.sendCodePerIp),
      account: windowed('send-code-account', settings.sendCodePerAccount),
    },
    verifyCode: {
      ip: windowed('verify-code-ip', settings.verifyCodePerIp),
      account: windowed('verify-code-account', settings.verifyCodePerAccount),
    },
  };
  const loginIp = windowed('login-ip', settings.loginPerIp);
  // Per (account, address): the run of failures, counted up front so parallel guesses count too.
  const pairFailures = make('login-failures', Number.MAX_SAFE_INTEGER, settings.loginFailureMemorySeconds);
  // Per (account, address) beyond the free failures: one check per lockout window, whose length
  // doubles with the run. Consumed atomically, so a burst gets one check, not one per request.
  const pairGate = make('login-gate', 1, settings.loginLockoutMaxSeconds);
  const accountChecks = windowed('login-account', settings.loginPerAccount);

  const lockoutSeconds = (beyondFree: number) =>
    Math.min(settings.loginLockoutBaseSeconds * 2 ** (beyondFree - 1), settings.loginLockoutMaxSeconds);

  return {
    /** Counts one attempt of `action` for the IP, then for the account; 429 over either limit. */
    async hit(action: LimitedAction, ip: string, accountKey: string): Promise<void> {
      await consume(perAction[action].ip, ip, onRefusal);
      await consume(perAction[action].account, hashKey(accountKey), onRefusal);
    },

    /**
     * Before a sign-in check (or a change-password check of the current key): reserves the
     * check as a failure, or answers 429 when the IP is over its limit, this (account, IP) is
     * locked out, or the account has used its checks of the window. A correct key must call
     * `loginSucceeded`; a wrong one needs nothing more, it is already counted.
     */
    async beforeLogin(ip: string, accountKey: string): Promise<void> {
      await consume(loginIp, ip, onRefusal);
      const pair = hashKey(`${accountKey}\u0000${ip}`);
      const run = (await pairFailures.penalty(pair)).consumedPoints;
      const beyondFree = run - settings.loginFreeFailures;
      if (beyondFree > 0) {
        try {
          await pairGate.consume(pair, 1, { customDuration: lockoutSeconds(beyondFree) });
        } catch (rejection) {
          await pairFailures.reward(pair);
          throw asTooMany(rejection, pairGate, onRefusal);
        }
      }
      try {
        await accountChecks.consume(hashKey(accountKey));
      } catch (rejection) {
        await pairFailures.reward(pair);
        if (beyondFree > 0) await pairGate.reward(pair);
        throw asTooMany(rejection, accountChecks, onRefusal);
      }
    },

    /** A correct key: forgets this address's run and gives the account its check back. */
    async loginSucceeded(ip: string, accountKey: string): Promise<void> {
      const pair = hashKey(`${accountKey}\u0000${ip}`);
      await Promise.all([pairFailures.delete(pair), pairGate.delete(pair), accountChecks.reward(hashKey(accountKey))]);
    },
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;

export type RefusalListener = (limiter: string) => void;

async function consume(limiter: RateLimiterAbstract, key: string, onRefusal: RefusalListener): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (rejection) {
    throw asTooMany(rejection, limiter, onRefusal);
  }
}

/** A limiter's refusal as a 429 (told to onRefusal); anything else (a store failure) as it is. */
function asTooMany(rejection: unknown, limiter: RateLimiterAbstract, onRefusal: RefusalListener): unknown {
  if (!(rejection instanceof RateLimiterRes)) return rejection;
  // The key prefix ends with the name given to `make`, e.g. `lockit:login-ip`.
  onRefusal(limiter.keyPrefix.slice(limiter.keyPrefix.lastIndexOf(':') + 1));
  return tooMany(rejection.msBeforeNext);
}

function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 32);
}

/** 429 with Retry-After, worded for a person: "Too many attempts. Try again in 5 minutes." */
export function tooMany(msBeforeNext: number, lead = 'Too many attempts.'): HttpError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new HttpError(429, `${lead} Try again in ${describeWait(seconds)}.`, {
    headers: { 'retry-after': String(seconds) },
  });
}

export function describeWait(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
