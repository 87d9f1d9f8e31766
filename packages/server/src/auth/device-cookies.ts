import { createHmac, randomBytes } from 'node:crypto';
import { macMatches } from './signed-value';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiPaths } from '@lockit/contract';
import type { AppConfig } from '../config/app-config';
import { cookieSecureFor } from './session-cookies';

/**
 * OWASP's device cookie ("Slow Down Online Guessing Attacks with Device Cookies"): after a
 * successful sign-in the browser gets `v1.<userId>.<expiresAt>.<nonce>.<mac>`, the MAC an
 * HMAC-SHA256 under the server secret. A sign-in to that account presenting it is rationed
 * per cookie (the nonce), not by the per-account and per-address lockouts strangers fill.
 * It grants nothing else: it is sent to the sign-in and prelogin routes only, HttpOnly,
 * SameSite=Strict.
 */
export const DEVICE_COOKIE = 'lockit_device';
export const DEVICE_COOKIE_LIFETIME_MS = 365 * 24 * 60 * 60 * 1000;

export interface DeviceCookie {
  userId: string;
  /** Random, per issued cookie: the key its own failures are counted under. */
  nonce: string;
}

function mac(secret: Buffer, payload: string): Buffer {
  return createHmac('sha256', secret).update(`device-cookie|${payload}`).digest();
}

export function makeDeviceCookieValue(secret: Buffer, userId: string, expiresAt: number): string {
  const payload = `v1.${userId}.${expiresAt.toString(36)}.${randomBytes(16).toString('base64url')}`;
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

/** The cookie's account and nonce when its MAC is right and it has not expired; else undefined. */
export function readDeviceCookie(secret: Buffer, value: string | undefined, now: number): DeviceCookie | undefined {
  if (!value || value.length > 256) return undefined;
  const parts = value.split('.');
  if (parts.length !== 5 || parts[0] !== 'v1') return undefined;
  const [, userId, expires, nonce, signature] = parts as [string, string, string, string, string];
  const expected = mac(secret, parts.slice(0, 4).join('.'));
  if (!macMatches(signature, expected)) return undefined;
  if (Number.parseInt(expires, 36) <= now) return undefined;
  return { userId, nonce };
}

/** The valid device cookie this sign-in request carries, if any. */
export function deviceCookieOf(request: FastifyRequest, config: AppConfig, now: number): DeviceCookie | undefined {
  return readDeviceCookie(config.serverSecret, request.cookies[DEVICE_COOKIE], now);
}

/**
 * The routes the browser sends it to, one cookie per path: the sign-in call, its prelogin, and
 * passkey sign-in (which reads it only to know the browser, for the new-browser mail).
 */
export const DEVICE_COOKIE_PATHS = [apiPaths.prelogin, apiPaths.login, apiPaths.passkeySignIn] as const;

/** A fresh cookie (new nonce) after each successful sign-in, as OWASP's scheme says. */
export function setDeviceCookie(reply: FastifyReply, config: AppConfig, userId: string, now: number): void {
  const secure = cookieSecureFor(reply.request, config);
  const expiresAt = now + DEVICE_COOKIE_LIFETIME_MS;
  const value = makeDeviceCookieValue(config.serverSecret, userId, expiresAt);
  for (const path of DEVICE_COOKIE_PATHS) {
    reply.setCookie(DEVICE_COOKIE, value, {
      httpOnly: true,
      sameSite: 'strict',
      secure,
      path,
      maxAge: Math.floor(DEVICE_COOKIE_LIFETIME_MS / 1000),
    });
  }
}

/**
 * Forgets this browser as a known device: when its account is deleted, the cookie can vouch
 * for nothing any more. Logout keeps it: the browser stays the owner's known device.
 */
export function clearDeviceCookie(reply: FastifyReply, config: AppConfig): void {
  const secure = cookieSecureFor(reply.request, config);
  for (const path of DEVICE_COOKIE_PATHS) {
    reply.clearCookie(DEVICE_COOKIE, { httpOnly: true, sameSite: 'strict', secure, path });
  }
}
