import { z } from 'zod';

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
/** Per-account caps (decision 0036): generous, so that only abuse meets them. */
export const DEFAULT_VAULT_MAX_ITEMS = 50_000;
export const DEFAULT_VAULT_MAX_MEGABYTES = 200;

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

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** auto: readable lines when the log goes to a terminal, JSON lines otherwise. */
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;

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
  TRUST_PROXY: booleanText.default(false),
  /** auto: Secure cookies when the request came over HTTPS. */
  COOKIE_SECURE: z.enum(['auto', 'true', 'false'], { message: 'must be auto, true or false' }).default('auto'),
  /** The built web app. Default: packages/web/dist. Without an index.html only the API is served. */
  WEB_DIST_DIR: optionalText,
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  LOG_FORMAT: z.enum(LOG_FORMATS, { message: `must be one of ${LOG_FORMATS.join(', ')}` }).default('auto'),
  /** Earlier versions kept per entry (every save, Trash move and restore keeps one). */
  HISTORY_LIMIT: wholeNumberBetween(1, 1000, DEFAULT_HISTORY_LIMIT),
  /** Days an entry stays in Trash before the server deletes it and its history for good. */
  TRASH_RETENTION_DAYS: wholeNumberBetween(1, 3650, DEFAULT_TRASH_RETENTION_DAYS),
  /** The breach check's range API base URL, or `off`. */
  BREACH_CHECK_URL: breachCheckUrl,
  /** Most entries one account may hold, Trash included. */
  VAULT_MAX_ITEMS: wholeNumberBetween(1, 10_000_000, DEFAULT_VAULT_MAX_ITEMS),
  /** Most megabytes of ciphertext one account's entries and their history may take. */
  VAULT_MAX_MEGABYTES: wholeNumberBetween(1, 1_000_000, DEFAULT_VAULT_MAX_MEGABYTES),
});

export type ConfigEnv = z.infer<typeof configEnvSchema>;
