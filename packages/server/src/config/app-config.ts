import type { SiteSettings } from '@lockit/contract/site-settings';
import type { SignupMode } from '@lockit/contract/paths';
import type { RateLimitSettings } from './rate-limit-settings';
import type { LoadLimits } from './load-limits';
import type { TrustProxy } from '../http/trust-proxy';
import type { AllowedHost } from '../http/allowed-hosts';
import type { LOG_FORMATS, LOG_LEVELS } from './config-schema';

export type DatabaseConfig =
  | { kind: 'sqlite'; file: string }
  /** `searchPath` puts every table in one schema (tests use a fresh schema per file). */
  | { kind: 'postgres'; url: string; searchPath?: string };

/** Everything the app needs, resolved from the environment by `loadConfig`. */
export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  smtpUrl: string | undefined;
  mailFrom: string;
  appOrigin: string | undefined;
  /** PUBLIC_ORIGIN: the passkeys' relying party; undefined: the origin of each request. */
  publicOrigin: string | undefined;
  /** ALLOWED_HOSTS: hosts the Host check answers for beside loopback names and PUBLIC_ORIGIN's. */
  allowedHosts: readonly AllowedHost[];
  /** Days "remember this browser" lasts, 0..365; 0: the choice is not offered. */
  rememberBrowserDays: number;
  /** Keys the HMACs of verification codes and prelogin salts. Never logged, never sent. */
  serverSecret: Buffer;
  redisUrl: string | undefined;
  /** Which proxies may give the client's address and scheme (TRUST_PROXY); false: none. */
  trustProxy: TrustProxy;
  cookieSecure: 'auto' | 'always' | 'never';
  /** Folder of the built web app; undefined serves the API only. */
  webDistDir: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  /** `auto` decides when the logger is made: pretty only when it writes to a terminal. */
  logFormat: (typeof LOG_FORMATS)[number];
  /** Earlier versions kept per entry, 1..1000. */
  historyLimit: number;
  /** Days a trashed entry is kept before the purge job deletes it, 1..3650. */
  trashRetentionDays: number;
  /** Live vault streams (decision 0066): heartbeat interval and per-account cap per process. */
  liveSync: { heartbeatMs: number; perAccount: number };
  /** Hours an account may stay unverified; then the cleanup job deletes it, 1..8760. */
  unverifiedAccountHours: number;
  /** Per-account caps, enforced on add, update and import batches (decision 0036). */
  vaultCaps: VaultCaps;
  /** Attachment limits in bytes (decision 0071): a file's own size, and an account's sealed total. */
  attachmentLimits: AttachmentLimits;
  /**
   * Base URL (no trailing slash) of the Pwned Passwords range API browsers may query for the
   * breach check, or null when the operator turned it off. The CSP's connect-src allows its origin.
   */
  breachCheckUrl: string | null;
  /** Prometheus metrics at /metrics (observability/metrics-route.ts). */
  metrics: MetricsConfig;
  /**
   * The Argon2id PHC hash of ADMIN_TOKEN; undefined: the admin page and API are off (404).
   * The token itself is never in the config, the database or a log.
   */
  adminTokenHash: string | undefined;
  /** Who may sign up (decision 0044). */
  signup: SignupSettings;
  /** Share links (decision 0078): off refuses making and opening them; owners may still list and revoke. */
  shareLinks: { enabled: boolean };
  /** The web app's credit and social links (LOCKIT_AUTHOR_*, LOCKIT_SOCIAL_LINKS; decision 0082), written into its pages. */
  site: SiteSettings;
  /** Request timeouts, the per-address connection cap and the Argon2 queue. */
  loadLimits: LoadLimits;
  rateLimits: RateLimitSettings;
  /** Time limits of codes and sessions, in milliseconds. */
  timing: TimingSettings;
}

export interface SignupSettings {
  mode: SignupMode;
  /** Lower-case e-mail domains sign-up accepts (the address's domain, exactly); empty: any. */
  allowedEmailDomains: readonly string[];
  /** How long an invitation link works, in milliseconds. */
  inviteLifetimeMs: number;
}

export interface MetricsConfig {
  /** false: /metrics answers 404. */
  enabled: boolean;
  /** The bearer token /metrics requires; undefined: none. Never logged, never sent. */
  token: string | undefined;
}

export interface AttachmentLimits {
  /** The largest file, in bytes before sealing (the server compares its sealed size). */
  maxFileBytes: number;
  /** Sealed bytes of all files of one account, uploads under way included. */
  maxAccountBytes: number;
}

export interface VaultCaps {
  /** Entries, Trash included. */
  maxItems: number;
  /** Bytes of ciphertext of the entries and their history. */
  maxBytes: number;
}

export interface TimingSettings {
  codeLifetimeMs: number;
  codeResendCooldownMs: number;
  accessTokenLifetimeMs: number;
  refreshTokenIdleMs: number;
  sessionAbsoluteMs: number;
  /**
   * A refresh token presented again this soon after its rotation is treated as a race
   * between two tabs (answered without new cookies), not as theft.
   */
  refreshReuseGraceMs: number;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export const DEFAULT_TIMING: TimingSettings = {
  codeLifetimeMs: 10 * MINUTE,
  codeResendCooldownMs: MINUTE,
  accessTokenLifetimeMs: 15 * MINUTE,
  refreshTokenIdleMs: 14 * DAY,
  sessionAbsoluteMs: 30 * DAY,
  refreshReuseGraceMs: 10_000,
};

export const MAX_CODE_ATTEMPTS = 5;
export const BODY_LIMIT_BYTES = 256 * 1024;
