/** A window: at most `points` attempts per `durationSeconds`. */
export interface LimitWindow {
  points: number;
  durationSeconds: number;
}

/**
 * Rate limits and lockouts. Part of the config (not constants) so tests can use small values
 * where they test a limit and large ones elsewhere.
 */
export interface RateLimitSettings {
  /** Prefix of every limiter key (Redis or memory), so several deployments can share a Redis. */
  keyPrefix: string;
  loginPerIp: LimitWindow;
  /** Consecutive failed sign-ins of one account from one address before lockouts start. */
  loginFreeFailures: number;
  /** First lockout of that (account, address) after the free failures; each further failure doubles it. */
  loginLockoutBaseSeconds: number;
  loginLockoutMaxSeconds: number;
  /** How long a run of failures is remembered without a success. */
  loginFailureMemorySeconds: number;
  /**
   * Sign-in checks of one account from every address together. Reserved before the check and
   * given back on success, so at most `points` wrong keys are ever checked per window, however
   * many addresses send them at once; over it, the account's sign-in waits for the window end.
   */
  loginPerAccount: LimitWindow;
  /**
   * Wrong keys one device cookie (a browser that signed in to the account before) may present
   * per window. Its sign-ins skip the limits above; over this, the cookie is distrusted and
   * its sign-ins meet those limits like anyone else's.
   */
  loginPerDevice: LimitWindow;
  /** Change-password's current-key checks per account (a signed-in session only); not sign-in's limits. */
  passwordCheckPerAccount: LimitWindow;
  /** Per address only: prelogin has no per-account limit anyone could exhaust. */
  preloginPerIp: LimitWindow;
  createPerIp: LimitWindow;
  createPerAccount: LimitWindow;
  sendCodePerIp: LimitWindow;
  sendCodePerAccount: LimitWindow;
  verifyCodePerIp: LimitWindow;
  verifyCodePerAccount: LimitWindow;
  /** Username changes per address and per account: each tells whether a name is taken. */
  updateUsernamePerIp: LimitWindow;
  updateUsernamePerAccount: LimitWindow;
  /** Admin sign-ins (ADMIN_TOKEN) per address: each costs an Argon2 verify. */
  adminSignInPerIp: LimitWindow;
  /** The public share-link calls (reading a share's state, opening it) per address. */
  sharedLinkPerIp: LimitWindow;
}

export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  keyPrefix: 'lockit',
  // Every sign-in costs an Argon2 verify: the per-IP cap also bounds CPU spent per address.
  loginPerIp: { points: 50, durationSeconds: 15 * 60 },
  loginFreeFailures: 5,
  loginLockoutBaseSeconds: 60,
  loginLockoutMaxSeconds: 15 * 60,
  loginFailureMemorySeconds: 24 * 60 * 60,
  // Above what one address can reach under its own lockouts (9 checks in its first 15 minutes),
  // so a single attacker never locks the owner out; a distributed one waits at most 15 minutes.
  loginPerAccount: { points: 10, durationSeconds: 15 * 60 },
  loginPerDevice: { points: 10, durationSeconds: 15 * 60 },
  passwordCheckPerAccount: { points: 10, durationSeconds: 15 * 60 },
  preloginPerIp: { points: 60, durationSeconds: 60 },
  createPerIp: { points: 10, durationSeconds: 60 * 60 },
  createPerAccount: { points: 5, durationSeconds: 60 * 60 },
  sendCodePerIp: { points: 10, durationSeconds: 15 * 60 },
  sendCodePerAccount: { points: 5, durationSeconds: 60 * 60 },
  verifyCodePerIp: { points: 30, durationSeconds: 15 * 60 },
  verifyCodePerAccount: { points: 15, durationSeconds: 15 * 60 },
  updateUsernamePerIp: { points: 10, durationSeconds: 60 * 60 },
  updateUsernamePerAccount: { points: 5, durationSeconds: 60 * 60 },
  adminSignInPerIp: { points: 10, durationSeconds: 15 * 60 },
  sharedLinkPerIp: { points: 60, durationSeconds: 60 },
};
