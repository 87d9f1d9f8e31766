import { z } from 'zod';
import { emailSchema } from './common';

/**
 * The admin API, present only when the server has an ADMIN_TOKEN: otherwise every
 * path answers 404. An admin session is its own HttpOnly cookie, limited to ADMIN_API_PREFIX,
 * apart from user sessions. No answer ever holds vault content: no ciphertext, entry id or
 * folder name, only counts and sizes.
 */
export const ADMIN_API_PREFIX = '/api/admin';

export const adminPaths = {
  /** GET: 200 with the session's limits when signed in, 401 when not (404: admin is off). */
  session: `${ADMIN_API_PREFIX}/session`,
  signIn: `${ADMIN_API_PREFIX}/sign-in`,
  signOut: `${ADMIN_API_PREFIX}/sign-out`,
  users: `${ADMIN_API_PREFIX}/users`,
  /** DELETE: the account and everything of it. */
  user: (id: string) => `${ADMIN_API_PREFIX}/users/${encodeURIComponent(id)}`,
  disableUser: (id: string) => `${ADMIN_API_PREFIX}/users/${encodeURIComponent(id)}/disable`,
  enableUser: (id: string) => `${ADMIN_API_PREFIX}/users/${encodeURIComponent(id)}/enable`,
  endUserSessions: (id: string) => `${ADMIN_API_PREFIX}/users/${encodeURIComponent(id)}/end-sessions`,
  invites: `${ADMIN_API_PREFIX}/invites`,
  diagnostics: `${ADMIN_API_PREFIX}/diagnostics`,
} as const;

/** The admin token as typed; checked by Argon2 against the configured hash. */
export const ADMIN_TOKEN_MAX_LENGTH = 512;
export const adminSignInRequestSchema = z.object({
  token: z.string().min(1, 'is required').max(ADMIN_TOKEN_MAX_LENGTH, `must be at most ${ADMIN_TOKEN_MAX_LENGTH} characters`),
});
export type AdminSignInRequest = z.infer<typeof adminSignInRequestSchema>;

export const adminUserIdSchema = z.uuid('must be a user id (a UUID)');

const isoTime = z.iso.datetime();

export const adminSessionResponseSchema = z.object({
  message: z.string(),
  data: z.object({
    /** When the session ends at the latest; it also ends after `idleMinutes` without a request. */
    expiresAt: isoTime,
    idleMinutes: z.number().int().positive(),
  }),
});
export type AdminSessionInfo = z.infer<typeof adminSessionResponseSchema>['data'];

/** One account as the operator sees it: identity, state and how much it stores, never what. */
export const adminUserSchema = z.object({
  id: adminUserIdSchema,
  username: z.string(),
  email: z.string(),
  createdAt: isoTime,
  /** Last sign-in or session use (to the minute); null: never since this was recorded. */
  lastSeenAt: isoTime.nullable(),
  verified: z.boolean(),
  disabled: z.boolean(),
  /** Entries, Trash included. */
  items: z.number().int().nonnegative(),
  /** Bytes of ciphertext of the entries and their history. */
  bytes: z.number().int().nonnegative(),
  /** Second factors: none, an authenticator app (totp), security keys or passkeys (webauthn), or both. */
  twoFactor: z.enum(['none', 'totp', 'webauthn', 'both']),
});
export type AdminUser = z.infer<typeof adminUserSchema>;
export type AdminTwoFactor = AdminUser['twoFactor'];

/**
 * A byte count as the operator reads it (1.2 KiB, 3.4 MiB), the same in `lockit-admin`'s
 * output and on the admin page.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

export const adminUsersResponseSchema = z.object({
  message: z.string(),
  data: z.object({ users: z.array(adminUserSchema) }),
});

export const adminUserResponseSchema = z.object({ message: z.string(), data: z.object({ user: adminUserSchema }) });

export const adminInviteRequestSchema = z.object({ email: emailSchema.optional() });
export type AdminInviteRequest = z.infer<typeof adminInviteRequestSchema>;

export const adminInviteResponseSchema = z.object({
  message: z.string(),
  data: z.object({
    /** The sign-up link to hand over; it is the invite, so show it only to the operator. */
    link: z.string(),
    expiresAt: isoTime.nullable(),
    /** Whether it was also mailed (an e-mail was given and SMTP is configured). */
    emailed: z.boolean(),
  }),
});
export type AdminInvite = z.infer<typeof adminInviteResponseSchema>['data'];

export const adminEndSessionsResponseSchema = z.object({
  message: z.string(),
  data: z.object({ ended: z.number().int().nonnegative() }),
});

export const adminDiagnosticsResponseSchema = z.object({
  message: z.string(),
  /** `text`: one block to paste into a bug report, with no secret in it. */
  data: z.object({ text: z.string() }),
});
