import { z } from 'zod';

/**
 * Sessions and devices: the signed-in user's own sessions, for Profile. A session
 * is named by an opaque id the server made, never by a token or a token's hash; the browser
 * and system are read from the User-Agent the device sent, so they describe, not prove.
 */
export const sessionIdSchema = z.uuid('must be a session id');

export const deviceSessionSchema = z.object({
  id: sessionIdSchema,
  /** "Chrome 156", "Firefox 128"; null when the User-Agent names none. */
  browser: z.string().nullable(),
  /** "Linux", "Windows 11", "iOS 17"; null when unknown. */
  system: z.string().nullable(),
  createdAt: z.iso.datetime(),
  /** Written at most once a minute, so it may lag by that much. */
  lastUsedAt: z.iso.datetime(),
  /** The last client address seen; null for sessions opened before addresses were kept. */
  address: z.string().nullable(),
  /** The address the session signed in from. */
  signInAddress: z.string().nullable(),
  /** The session of the browser asking. */
  current: z.boolean(),
});
export type DeviceSession = z.infer<typeof deviceSessionSchema>;

// GET /api/user/sessions — the caller's usable sessions, most recently used first.
export const listSessionsResponseSchema = z.object({ message: z.string(), data: z.array(deviceSessionSchema) });

// DELETE /api/user/sessions/{id} — ends one other session (the current one is ended by logout).

// POST /api/user/sessions/end-others — ends every session but the caller's.
export const endOtherSessionsResponseSchema = z.object({
  message: z.string(),
  data: z.object({ ended: z.number().int().nonnegative() }),
});
