import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long an opening's ticket lets its file be fetched: enough to start a download, not to keep one. */
export const SHARE_FILE_TICKET_MS = 10 * 60 * 1000;

export interface ShareFileTicket {
  /** Until when (ms) a download may start with it. */
  expiresAt: number;
  /** Issued by the opening that used the link's last one. */
  last: boolean;
}

function mac(secret: Buffer, id: string, expiresAt: number, last: boolean, nonce: string): string {
  return createHmac('sha256', secret)
    .update(`lockit/v1/share-file-ticket|${id}|${expiresAt}|${last ? 1 : 0}|${nonce}`)
    .digest('base64url');
}

/**
 * A ticket for one opening of share `id`: `<expires>.<last>.<nonce>.<HMAC>` under the server
 * secret, so any process sharing the secret (and the database) accepts it, and nobody makes
 * one without opening the link. Security invariant: fetching a shared file takes a ticket, and a
 * ticket is only ever issued by an opening counted by takeOpening, so a download never happens
 * without an opening and never takes one of its own.
 */
export function issueShareFileTicket(secret: Buffer, id: string, now: number, last: boolean): string {
  const expiresAt = now + SHARE_FILE_TICKET_MS;
  const nonce = randomBytes(12).toString('base64url');
  return `${expiresAt}.${last ? 1 : 0}.${nonce}.${mac(secret, id, expiresAt, last, nonce)}`;
}

/** The ticket's terms when it was issued for share `id` and has not expired at `now`; null otherwise. */
export function checkShareFileTicket(secret: Buffer, id: string, ticket: string, now: number): ShareFileTicket | null {
  const parts = ticket.split('.');
  if (parts.length !== 4) return null;
  const [expires, lastFlag, nonce, given] = parts as [string, string, string, string];
  if (!/^\d{1,16}$/.test(expires) || (lastFlag !== '0' && lastFlag !== '1')) return null;
  const expiresAt = Number(expires);
  const last = lastFlag === '1';
  const expected = Buffer.from(mac(secret, id, expiresAt, last, nonce));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
  if (expiresAt <= now) return null;
  return { expiresAt, last };
}
