import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { LimitWindow, RateLimitSettings } from '../config/rate-limit-settings';
import { HttpError } from '../http/http-error';
import { MAX_CODE_ATTEMPTS } from '../config/app-config';

export type LimitedAction = 'prelogin' | 'create' | 'sendCode' | 'verifyCode' | 'updateUsername' | 'sharedLink';

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

  // Prelogin has no per-account limit: one address could exhaust it and keep the owner from
  // signing in, and it protects nothing (unknown names get a stable fake answer; decision 0047).
  const perAction: Record<LimitedAction, { ip: RateLimiterAbstract; account?: RateLimiterAbstract }> = {
    prelogin: { ip: windowed('prelogin-ip', settings.preloginPerIp) },
    // Per address only: a per-link limit would let a stranger use up the recipient's tries.
    sharedLink: { ip: windowed('shared-link-ip', settings.sharedLinkPerIp) },
    create: { ip: windowed('create-ip', settings.createPerIp), account: windowed('create-account', settings.createPerAccount) },
    sendCode: {
      ip: windowed('send-code-ip', settings.sendCodePerIp),
      account: windowed('send-code-account', settings.sendCodePerAccount),
    },
    verifyCode: {
      ip: windowed('verify-code-ip', settings.verifyCodePerIp),
      account: windowed('verify-code-account', settings.verifyCodePerAccount),
    },
    // Like sign-up: each try tells whether a name is free, so probing names is bounded alike.
    updateUsername: {
      ip: windowed('update-username-ip', settings.updateUsernamePerIp),
      account: windowed('update-username-account', settings.updateUsernamePerAccount),
    },
  };
  const decoyCooldowns = make('code-decoy-cooldown', 1, 60);
  const decoyAttempts = make('code-decoy-attempts', MAX_CODE_ATTEMPTS, 60);
  const decoyKey = (pairKey: string) => hashKey(`code-decoy\u0000${pairKey}`);
  const loginIp = windowed('login-ip', settings.loginPerIp);
  // Per (account, address): the run of failures, counted up front so parallel guesses count too.
  const pairFailures = make('login-failures', Number.MAX_SAFE_INTEGER, settings.loginFailureMemorySeconds);
  // Per (account, address) beyond the free failures: one check per lockout window, whose length
  // doubles with the run. Consumed atomically, so a burst gets one check, not one per request.
  const pairGate = make('login-gate', 1, settings.loginLockoutMaxSeconds);
  const accountChecks = windowed('login-account', settings.loginPerAccount);
  // Per device cookie: its wrong keys of the window, reserved before each check. Over it the
  // cookie is distrusted (the attempt meets the strangers' limits), nothing else changes.
  const deviceChecks = windowed('login-device', settings.loginPerDevice);
  // Prelogin from a browser with the account's device cookie: its own allowance (the per-address
  // one's size), so others behind the same address cannot use it up.
  const preloginDevice = windowed('prelogin-device', settings.preloginPerIp);
  // Change-password's current-key checks, per account: only a signed-in session reaches them.
  const passwordChecks = windowed('password-check', settings.passwordCheckPerAccount);

  // Wrong second factors (TOTP, recovery codes, security keys) per account and per device,
  // over every pending sign-in, known browser or not (see beforeSecondFactor). Hour-long
  // windows that only a correct factor gives a point back to: no sign-in step resets them.
  const secondFactorAccount = make('second-factor-account', SECOND_FACTOR_FAILURES_PER_HOUR, 3600);
  const secondFactorDevice = make('second-factor-device', SECOND_FACTOR_FAILURES_PER_DEVICE_HOUR, 3600);

  const lockoutSeconds = (beyondFree: number) =>
    Math.min(settings.loginLockoutBaseSeconds * 2 ** (beyondFree - 1), settings.loginLockoutMaxSeconds);

  return {
    /** Counts one attempt of `action` for the IP, then (but for prelogin) the account; 429 over either. */
    async hit(action: LimitedAction, ip: string, accountKey: string): Promise<void> {
      const { ip: perIp, account } = perAction[action];
      await consume(perIp, ip, onRefusal);
      if (account) await consume(account, hashKey(accountKey), onRefusal);
    },

    /**
     * Stand-ins for a verification code's cool-down and tries, for a (name, e-mail) pair that
     * has no live code (unknown, verified, or pending without one), so that send-code and
     * verify-code answer it as they answer a real pending account. Returns the time left of
     * the pair's cool-down, or 0 when a "send" may happen now (it then starts a new one).
     */
    async decoySend(pairKey: string, cooldownMs: number): Promise<number> {
      try {
        // A duration of 0 would never expire: no cool-down configured means none here either.
        if (cooldownMs > 0) {
          await decoyCooldowns.consume(decoyKey(pairKey), 1, { customDuration: Math.ceil(cooldownMs / 1000) });
        }
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return rejection.msBeforeNext;
        throw rejection;
      }
      // A "new code": its tries start afresh, as a real new code's do.
      await decoyAttempts.delete(decoyKey(pairKey));
      return 0;
    },

    /** One wrong try of a code that does not exist; false past MAX_CODE_ATTEMPTS within a code's lifetime. */
    async decoyAttempt(pairKey: string, codeLifetimeMs: number): Promise<boolean> {
      try {
        await decoyAttempts.consume(decoyKey(pairKey), 1, { customDuration: Math.ceil(codeLifetimeMs / 1000) });
        return true;
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return false;
        throw rejection;
      }
    },

    /** Counts a prelogin of the account whose valid device cookie the browser carries; 429 over its allowance. */
    async hitPreloginByDevice(deviceNonce: string): Promise<void> {
      await consume(preloginDevice, hashKey(`device\u0000${deviceNonce}`), onRefusal);
    },

    /**
     * Before a sign-in check from a browser with a valid device cookie for the account:
     * reserves the check as a failure of that cookie. False when the cookie has used its
     * wrong keys of the window: it is then distrusted and the caller applies `beforeLogin`.
     * No other address's failures count here, so strangers cannot lock this browser out.
     */
    async beforeDeviceLogin(deviceNonce: string): Promise<boolean> {
      try {
        await deviceChecks.consume(hashKey(`device\u0000${deviceNonce}`));
        return true;
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        onRefusal('login-device');
        return false;
      }
    },

    /** A correct key from that cookie: its failures are forgotten. */
    async deviceLoginSucceeded(deviceNonce: string): Promise<void> {
      await deviceChecks.delete(hashKey(`device\u0000${deviceNonce}`));
    },

    /**
     * Before change-password checks the current key: reserves the check for the account
     * (by id); 429 when it has used its checks of the window. A stolen session is no
     * unlimited guessing oracle, and strangers' sign-in failures never fill it.
     */
    async beforePasswordCheck(userId: string): Promise<void> {
      await consume(passwordChecks, hashKey(`user\u0000${userId}`), onRefusal);
    },

    /** The current key was right: the check is given back. */
    async passwordCheckSucceeded(userId: string): Promise<void> {
      await passwordChecks.reward(hashKey(`user\u0000${userId}`));
    },

    /**
     * Before a sign-in check without a trusted device cookie: reserves the
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

    /**
     * Before any second factor (TOTP, recovery code, security key) is checked: reserves the
     * check as a failure of the device (`deviceKey`: its device cookie's nonce, else its
     * address) and of the account; 429 once either has had its wrong factors of the hour
     * (SECOND_FACTOR_FAILURES_PER_DEVICE_HOUR, SECOND_FACTOR_FAILURES_PER_HOUR), whatever
     * the factor sent then, the right one included.
     *
     * Security invariant: nothing but a correct second factor gives a point back, and only
     * its own. A correct password (which starts a new pending sign-in) resets neither count,
     * and a known browser is counted like any other, so whoever holds the master password
     * gets at most 10 guesses an hour at the second factor, however they restart sign-ins.
     */
    async beforeSecondFactor(userId: string, deviceKey: string): Promise<void> {
      const device = hashKey(`second-factor-device\u0000${userId}\u0000${deviceKey}`);
      await consume(secondFactorDevice, device, onRefusal);
      try {
        await secondFactorAccount.consume(hashKey(`second-factor\u0000${userId}`));
      } catch (rejection) {
        // Refused for the account: the device's point was never used for a check.
        await secondFactorDevice.reward(device);
        throw asTooMany(rejection, secondFactorAccount, onRefusal);
      }
    },

    /** The factor was right: the check reserved for it (device and account) is given back, nothing more. */
    async secondFactorSucceeded(userId: string, deviceKey: string): Promise<void> {
      await Promise.all([
        secondFactorDevice.reward(hashKey(`second-factor-device\u0000${userId}\u0000${deviceKey}`)),
        secondFactorAccount.reward(hashKey(`second-factor\u0000${userId}`)),
      ]);
    },

    /** A correct key: forgets this address's run and gives the account its check back. */
    async loginSucceeded(ip: string, accountKey: string): Promise<void> {
      const pair = hashKey(`${accountKey}\u0000${ip}`);
      await Promise.all([pairFailures.delete(pair), pairGate.delete(pair), accountChecks.reward(hashKey(accountKey))]);
    },
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;

/** Wrong second factors an account takes per hour, from all its browsers together, known ones included. */
export const SECOND_FACTOR_FAILURES_PER_HOUR = 10;
/** Wrong second factors one browser (device cookie, else address) takes per hour for an account: one pending sign-in's worth. */
export const SECOND_FACTOR_FAILURES_PER_DEVICE_HOUR = 5;

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
