import { randomUUID } from 'node:crypto';
import type { TimingSettings } from '../config/app-config';
import type { Db, Executor } from '../db/schema';
import type { Repositories } from '../db/repositories/index';
import type { SessionUser } from '../db/repositories/sessions-repository';
import { hashToken, newToken } from './tokens';
import type { IssuedTokens } from './session-cookies';
import { storedAddress, storedClient, type SessionClient } from './session-client';
import { describeUserAgent, type DeviceDescription } from './describe-user-agent';

export interface AuthenticatedSession {
  sessionId: string;
  /** Id, username and vault revision only; `repos.users.findById` has the rest. */
  user: SessionUser;
}

export type RefreshOutcome =
  | { kind: 'rotated'; tokens: IssuedTokens }
  /** The token was rotated moments ago by a concurrent request: nothing to set. */
  | { kind: 'raced' }
  | { kind: 'ended' };

/** One of a user's sessions as the device list shows it: an opaque id, never a token or hash. */
export interface DeviceSession extends DeviceDescription {
  id: string;
  createdAt: number;
  lastUsedAt: number;
  /** The last address seen (else the sign-in one), and the sign-in one; null for sessions older than 0009. */
  address: string | null;
  signInAddress: string | null;
  current: boolean;
}

export type EndSessionOutcome = 'ended' | 'current' | 'not-found';

/** Writes `last_used_at` at most once a minute per session, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * Sessions: an opaque access token (short) and a rotating refresh token (idle and absolute
 * limits). Only SHA-256 hashes are stored. Every authenticated request reads the session
 * row, so deleting it (logout, password change, account deletion) ends access at once.
 */
export function createSessionService(db: Db, repos: Repositories, timing: TimingSettings, now: () => number) {
  function tokensFor(at: number, absoluteExpiresAt: number) {
    const accessToken = newToken();
    const refreshToken = newToken();
    return {
      issuedAt: at,
      accessToken,
      accessExpiresAt: Math.min(at + timing.accessTokenLifetimeMs, absoluteExpiresAt),
      refreshToken,
      refreshExpiresAt: Math.min(at + timing.refreshTokenIdleMs, absoluteExpiresAt),
    };
  }

  return {
    /** Opens a new session (a new family) for the user. */
    async issue(userId: string, client: SessionClient, ex: Executor = db): Promise<IssuedTokens> {
      const at = now();
      const { userAgent, address } = storedClient(client);
      const absoluteExpiresAt = at + timing.sessionAbsoluteMs;
      const tokens = tokensFor(at, absoluteExpiresAt);
      await repos.sessions.deleteExpiredForUser(userId, at, ex);
      await repos.sessions.insert(
        {
          id: randomUUID(),
          user_id: userId,
          access_hash: hashToken(tokens.accessToken),
          access_expires_at: tokens.accessExpiresAt,
          refresh_hash: hashToken(tokens.refreshToken),
          refresh_expires_at: tokens.refreshExpiresAt,
          absolute_expires_at: absoluteExpiresAt,
          user_agent: userAgent,
          created_at: at,
          last_used_at: at,
          sign_in_address: address,
          last_address: address,
        },
        ex,
      );
      await repos.users.touchLastSeen(userId, at, ex);
      return tokens;
    },

    /** The session and user behind an access token, or null when it is unknown or expired. */
    async authenticate(accessToken: string | undefined, address?: string): Promise<AuthenticatedSession | null> {
      if (!accessToken) return null;
      const at = now();
      const found = await repos.sessions.findWithUserByAccessHash(hashToken(accessToken));
      if (!found) return null;
      const { session, user } = found;
      if (session.access_expires_at <= at || session.absolute_expires_at <= at) return null;
      if (at - session.last_used_at >= TOUCH_INTERVAL_MS) {
        // The user's last-seen time rides on the session's own once-a-minute write.
        await repos.sessions.touch(session.id, at, storedAddress(address));
        await repos.users.touchLastSeen(user.id, at);
      }
      return { sessionId: session.id, user };
    },

    /**
     * Rotates both tokens. A refresh token that was already rotated is a sign of theft
     * (someone else holds a copy): the whole session ends, for them and for the owner.
     */
    async refresh(refreshToken: string | undefined, address?: string): Promise<RefreshOutcome> {
      if (!refreshToken) return { kind: 'ended' };
      const at = now();
      const presentedHash = hashToken(refreshToken);
      return db.transaction().execute(async (trx): Promise<RefreshOutcome> => {
        const session = await repos.sessions.findByRefreshHash(presentedHash, trx);
        if (!session) {
          const retired = await repos.sessions.findRetired(presentedHash, trx);
          if (!retired) return { kind: 'ended' };
          if (at - retired.retired_at < timing.refreshReuseGraceMs) return { kind: 'raced' };
          await repos.sessions.deleteById(retired.session_id, trx);
          return { kind: 'ended' };
        }
        if (session.refresh_expires_at <= at || session.absolute_expires_at <= at) {
          await repos.sessions.deleteById(session.id, trx);
          return { kind: 'ended' };
        }
        const tokens = tokensFor(at, session.absolute_expires_at);
        const rotated = await repos.sessions.rotate(
          session.id,
          presentedHash,
          {
            accessHash: hashToken(tokens.accessToken),
            accessExpiresAt: tokens.accessExpiresAt,
            refreshHash: hashToken(tokens.refreshToken),
            refreshExpiresAt: tokens.refreshExpiresAt,
          },
          at,
          storedAddress(address),
          trx,
        );
        if (!rotated) return { kind: 'raced' };
        await repos.sessions.retireRefreshToken(presentedHash, session.id, at, trx);
        await repos.users.touchLastSeen(session.user_id, at, trx);
        return { kind: 'rotated', tokens };
      });
    },

    /** Ends the session a cookie belongs to (access or refresh token), if any; names its user. */
    async endByTokens(accessToken: string | undefined, refreshToken: string | undefined): Promise<string | undefined> {
      const byAccess = accessToken ? await repos.sessions.findByAccessHash(hashToken(accessToken)) : undefined;
      const byRefresh = !byAccess && refreshToken ? await repos.sessions.findByRefreshHash(hashToken(refreshToken)) : undefined;
      const session = byAccess ?? byRefresh;
      if (session) await repos.sessions.deleteById(session.id);
      return session?.user_id;
    },

    /** The user's usable sessions, most recently used first, with `currentId` marked. */
    async listForUser(userId: string, currentId: string): Promise<DeviceSession[]> {
      const rows = await repos.sessions.listUsableForUser(userId, now());
      return rows.map((row) => ({
        id: row.id,
        ...describeUserAgent(row.user_agent),
        createdAt: row.created_at,
        lastUsedAt: row.last_used_at,
        address: row.last_address ?? row.sign_in_address ?? null,
        signInAddress: row.sign_in_address ?? null,
        current: row.id === currentId,
      }));
    },

    /**
     * Ends one other session of the user: its row goes, so that device's access cookie and its
     * refresh cookie both fail on their very next request. The current session is not ended
     * here (that is logout, which also clears the cookies); another user's id is not found.
     */
    async endOne(userId: string, currentId: string, id: string): Promise<EndSessionOutcome> {
      if (id === currentId) return 'current';
      return (await repos.sessions.deleteOneOfUser(userId, id)) ? 'ended' : 'not-found';
    },

    /** Ends every session of the user but the current one; returns how many ended. */
    endOthers(userId: string, currentId: string): Promise<number> {
      return repos.sessions.deleteOthersOfUser(userId, currentId);
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
