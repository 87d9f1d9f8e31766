import { z } from 'zod';
import { DEFAULT_HASHING_QUEUE_MAX, DEFAULT_MAX_CONNECTIONS_PER_IP, DEFAULT_REQUEST_TIMEOUT_SECONDS } from './load-limits';
import { SIGNUP_MODES } from '@lockit/contract/paths';
import { parseTrustProxy } from '../http/trust-proxy';
import { parseAllowedHosts } from '../http/allowed-hosts';

/**
 * The server's environment, named once. Docs are checked against `configEnvSchema.shape`,
 * so every variable the server reads appears here with its default.
 */
const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const booleanText = z
  .string()
  .trim()
  .toLowerCase()
  .refine((value) => ['true', 'false', '1', '0', 'yes', 'no', ''].includes(value), {
    message: 'must be true or false',
  })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const httpOrigin = z
  .string()
  .trim()
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value.replace(/\/$/, '');
      } catch {
        return false;
      }
    },
    { message: 'must be an http(s) origin such as https://vault.example.com (no path)' },
  )
  .transform((value) => new URL(value).origin);

/** Earlier versions kept per entry, and days in Trash, unless the environment says otherwise. */
export const DEFAULT_HISTORY_LIMIT = 50;
export const DEFAULT_TRASH_RETENTION_DAYS = 30;
export const DEFAULT_LIVE_HEARTBEAT_SECONDS = 25;
export const DEFAULT_LIVE_STREAMS_PER_ACCOUNT = 10;
/** Per-account caps (decision 0036): generous, so that only abuse meets them. */
export const DEFAULT_VAULT_MAX_ITEMS = 50_000;
export const DEFAULT_VAULT_MAX_MEGABYTES = 200;
/** Attachment limits (decision 0071): the size of one file, and all files of one account. */
export const DEFAULT_ATTACHMENT_MAX_FILE_MEGABYTES = 100;
export const DEFAULT_ATTACHMENT_MAX_ACCOUNT_MEGABYTES = 1024;
/** Hours an account may stay unverified before the cleanup job deletes it (jobs/cleanup-jobs.ts). */
export const DEFAULT_UNVERIFIED_ACCOUNT_HOURS = 24;

/** A whole number in [min, max]; empty or unset is `fallback`. */
const wholeNumberBetween = (min: number, max: number, fallback: number) =>
  z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.coerce
      .number({ message: 'must be a number' })
      .int('must be a whole number')
      .min(min, `must be between ${min} and ${max}`)
      .max(max, `must be between ${min} and ${max}`)
      .default(fallback),
  );

/** Have I Been Pwned's range API: the breach check's default (decision 0033). */
export const DEFAULT_BREACH_CHECK_URL = 'https://api.pwnedpasswords.com';

/**
 * Base URL of a Pwned Passwords range API (`{base}/range/{5 hex}`), or `off`. Only 5 hex
 * characters of a password's SHA-1 ever reach it, from the browser, never from this server.
 */
const breachCheckUrl = z
  .string()
  .trim()
  .refine(
    (value) => {
      if (value === '' || value.toLowerCase() === 'off') return true;
      try {
        const url = new URL(value);
        return (url.protocol === 'https:' || url.protocol === 'http:') && url.search === '' && url.hash === '' && !url.username;
      } catch {
        return false;
      }
    },
    { message: 'must be off or an http(s) URL such as https://api.pwnedpasswords.com (no query, no credentials)' },
  )
  .transform((value): string | null => {
    if (value === '') return DEFAULT_BREACH_CHECK_URL;
    if (value.toLowerCase() === 'off') return null;
    return value.replace(/\/+$/, '');
  })
  .default(DEFAULT_BREACH_CHECK_URL);

/** Days "remember this browser" skips the second factor unless REMEMBER_BROWSER_DAYS says otherwise. */
export const DEFAULT_REMEMBER_BROWSER_DAYS = 30;

/** Days an invitation link works unless INVITE_LIFETIME_DAYS says otherwise. */
export const DEFAULT_INVITE_LIFETIME_DAYS = 7;

/** A DNS name of two labels or more, ASCII (international names in their xn-- form). */
const DOMAIN_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** `example.com, @Example.org` → ['example.com', 'example.org']; empty → [] (any domain). */
const emailDomainList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((domain) => domain.trim().toLowerCase().replace(/^@/, ''))
      .filter((domain) => domain !== ''),
  )
  .superRefine((domains, context) => {
    const bad = domains.filter((domain) => !DOMAIN_NAME.test(domain));
    if (bad.length > 0) {
      context.addIssue({
        code: 'custom',
        message: `has ${bad.map((domain) => `"${domain}"`).join(', ')}, which is not a domain: give e-mail domains separated by commas, such as example.com,example.org (international names in their xn-- form)`,
      });
    }
  })
  .transform((domains) => [...new Set(domains)])
  .default([]);

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** auto: readable lines when the log goes to a terminal, JSON lines otherwise. */
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;

/** An Argon2id hash in PHC form, as `npm run admin -- hash-token` prints it (parameters in any order). */
export const ARGON2ID_PHC =
  /^\$argon2id\$v=19\$[mtp]=\d{1,7},[mtp]=\d{1,7},[mtp]=\d{1,7}\$[A-Za-z0-9+/]{11,}\$[A-Za-z0-9+/]{16,}$/;

export const configEnvSchema = z.object({
  PORT: z.coerce
    .number({ message: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(3000),
  HOST: z.string().trim().min(1, 'must not be empty').default('127.0.0.1'),
  DATA_DIR: z.string().trim().min(1, 'must not be empty').default('./data'),
  /** A file path, `sqlite:<path>`, or a postgres:// / postgresql:// URL. Default: <DATA_DIR>/lockit.sqlite. */
  DATABASE_URL: optionalText,
  /** smtp:// or smtps://. Unset: verification codes go to the server log (development only). */
  SMTP_URL: optionalText.refine((value) => value === undefined || /^smtps?:\/\//i.test(value), {
    message: 'must start with smtp:// or smtps://',
  }),
  MAIL_FROM: z
    .string()
    .trim()
    .min(3, 'must be a sender such as Lockit <no-reply@example.com>')
    .default('Lockit <no-reply@localhost>'),
  /**
   * The origin people open Lockit at (https://vault.example.com): the passkeys' relying party
   * and the host the server answers for. Unset: the origin each request came to (localhost in development).
   */
  PUBLIC_ORIGIN: optionalText.pipe(httpOrigin.optional()),
  /** More `host[:port]` names the Host check answers for, beside loopback and PUBLIC_ORIGIN's host. */
  ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((text, context) => {
      const parsed = parseAllowedHosts(text);
      if ('hosts' in parsed) return parsed.hosts;
      context.addIssue({ code: 'custom', message: parsed.error });
      return z.NEVER;
    }),
  /** Origin of a web app hosted elsewhere: CORS with credentials for exactly that origin. */
  APP_ORIGIN: optionalText.pipe(httpOrigin.optional()),
  /** At least 32 characters. Unset: generated once into <DATA_DIR>/server-secret (mode 0600). */
  SERVER_SECRET: optionalText.refine((value) => value === undefined || value.length >= 32, {
    message: 'must be at least 32 characters long',
  }),
  /** redis:// or rediss://. Set it when several server processes share rate limits. */
  REDIS_URL: optionalText.refine((value) => value === undefined || /^rediss?:\/\//i.test(value), {
    message: 'must start with redis:// or rediss://',
  }),
  /** false, a hop count, or the proxies' addresses/CIDRs (http/trust-proxy.ts); `true` is refused. */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((text, context) => {
      const parsed = parseTrustProxy(text);
      if ('value' in parsed) return parsed.value;
      context.addIssue({ code: 'custom', message: parsed.error });
      return z.NEVER;
    }),
  /** auto: Secure cookies when the request came over HTTPS. */
  COOKIE_SECURE: z.enum(['auto', 'true', 'false'], { message: 'must be auto, true or false' }).default('auto'),
  /** The built web app. Default: packages/web/dist. Without an index.html only the API is served. */
  WEB_DIST_DIR: optionalText,
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  LOG_FORMAT: z.enum(LOG_FORMATS, { message: `must be one of ${LOG_FORMATS.join(', ')}` }).default('auto'),
  /** Earlier versions kept per entry (every save, Trash move and restore keeps one). */
  HISTORY_LIMIT: wholeNumberBetween(1, 1000, DEFAULT_HISTORY_LIMIT),
  /** Seconds between heartbeats of a live vault stream; its session is re-checked as often. */
  LIVE_HEARTBEAT_SECONDS: wholeNumberBetween(1, 60, DEFAULT_LIVE_HEARTBEAT_SECONDS),
  /** Live vault streams (GET /api/vault/events) one account may hold open in one process. */
  LIVE_STREAMS_PER_ACCOUNT: wholeNumberBetween(1, 1000, DEFAULT_LIVE_STREAMS_PER_ACCOUNT),
  /** Days an entry stays in Trash before the server deletes it and its history for good. */
  TRASH_RETENTION_DAYS: wholeNumberBetween(1, 3650, DEFAULT_TRASH_RETENTION_DAYS),
  /** The breach check's range API base URL, or `off`. */
  BREACH_CHECK_URL: breachCheckUrl,
  /** Most entries one account may hold, Trash included. */
  VAULT_MAX_ITEMS: wholeNumberBetween(1, 10_000_000, DEFAULT_VAULT_MAX_ITEMS),
  /** Most megabytes of ciphertext one account's entries and their history may take. */
  VAULT_MAX_MEGABYTES: wholeNumberBetween(1, 1_000_000, DEFAULT_VAULT_MAX_MEGABYTES),
  /** Largest file one attachment may be, in megabytes (MiB) before sealing; 0: attachments off. */
  ATTACHMENT_MAX_FILE_MEGABYTES: wholeNumberBetween(0, 1_000_000, DEFAULT_ATTACHMENT_MAX_FILE_MEGABYTES),
  /** Most megabytes (MiB) of sealed attachments one account may keep, uploads under way included. */
  ATTACHMENT_MAX_ACCOUNT_MEGABYTES: wholeNumberBetween(0, 100_000_000, DEFAULT_ATTACHMENT_MAX_ACCOUNT_MEGABYTES),
  /** Hours after sign-up an account that never verified its e-mail is deleted, freeing its name and address. */
  UNVERIFIED_ACCOUNT_HOURS: wholeNumberBetween(1, 8760, DEFAULT_UNVERIFIED_ACCOUNT_HOURS),
  /** Seconds a request (headers and body) may take to arrive before it is answered 408 and cut. */
  REQUEST_TIMEOUT_SECONDS: wholeNumberBetween(1, 3600, DEFAULT_REQUEST_TIMEOUT_SECONDS),
  /** Open connections per remote address (0: no cap). Not applied when TRUST_PROXY is on. */
  MAX_CONNECTIONS_PER_IP: wholeNumberBetween(0, 100_000, DEFAULT_MAX_CONNECTIONS_PER_IP),
  /** Argon2 jobs at once; empty or 0: the smaller of UV_THREADPOOL_SIZE - 1 and the cores. */
  HASHING_CONCURRENCY: wholeNumberBetween(0, 1024, 0),
  /** Argon2 jobs that may wait; past it sign-in, sign-up and change-password answer 503. */
  HASHING_QUEUE_MAX: wholeNumberBetween(1, 100_000, DEFAULT_HASHING_QUEUE_MAX),
  /** Serve Prometheus metrics at /metrics (false: 404). Empty is the default, true. */
  METRICS_ENABLED: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    booleanText.default(true),
  ),
  /** When set, /metrics needs `Authorization: Bearer <token>`. Unset: open to whoever reaches it. */
  METRICS_TOKEN: optionalText.refine((value) => value === undefined || value.length >= 16, {
    message: 'must be at least 16 characters long',
  }),
  /** Whether signed-in people may make share links (decision 0078); false turns them off, old links included. */
  SHARE_LINKS: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    booleanText.default(true),
  ),
  /** Who may sign up: open (anyone), invite (with an invitation link), closed (nobody). */
  SIGNUP_MODE: z
    .string()
    .trim()
    .toLowerCase()
    .transform((value) => (value === '' ? 'open' : value))
    .pipe(z.enum(SIGNUP_MODES, { message: `must be one of ${SIGNUP_MODES.join(', ')}` }))
    .default('open'),
  /** Comma-separated e-mail domains sign-up accepts (exact match, lower-cased); empty: any. */
  SIGNUP_ALLOWED_DOMAINS: emailDomainList,
  /** Days a browser the person chose to remember skips the second factor; 0 turns the choice off. */
  REMEMBER_BROWSER_DAYS: wholeNumberBetween(0, 365, DEFAULT_REMEMBER_BROWSER_DAYS),
  /** Days an invitation link works. */
  INVITE_LIFETIME_DAYS: wholeNumberBetween(1, 365, DEFAULT_INVITE_LIFETIME_DAYS),
  /**
   * The Argon2id hash (PHC string) of the admin token, never the token itself. Unset: the
   * admin page and API do not exist (404).
   */
  ADMIN_TOKEN: optionalText.refine((value) => value === undefined || ARGON2ID_PHC.test(value), {
    message:
      'must be the Argon2id hash of the admin token ($argon2id$v=19$...), not the token itself: make one with `npm run admin -- hash-token`',
  }),
});

export type ConfigEnv = z.infer<typeof configEnvSchema>;
