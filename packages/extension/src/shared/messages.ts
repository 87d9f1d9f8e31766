import type { EntryType } from '@lockit/contract';
import { z } from 'zod';
import { MATCH_RULES } from './url-match';

/**
 * Every message the service worker accepts, one schema per kind. A message that does not
 * parse is refused before anything reads it; extra keys are refused too (strict), so a
 * caller cannot smuggle a field a later version might read.
 */
const text = (max: number) => z.string().max(max);
const entryId = z.string().uuid();
const tabId = z.number().int().nonnegative();

export const requestSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('status') }),
  z.strictObject({ type: z.literal('connect'), server: text(2048) }),
  z.strictObject({ type: z.literal('sign-in'), username: text(200), password: text(1024) }),
  z.strictObject({ type: z.literal('second-factor'), method: z.enum(['totp', 'recovery']), code: text(64) }),
  z.strictObject({ type: z.literal('unlock'), password: text(1024) }),
  z.strictObject({ type: z.literal('lock') }),
  z.strictObject({ type: z.literal('sign-out') }),
  z.strictObject({
    type: z.literal('items'),
    query: text(200),
    tabId: tabId.optional(),
    /** The first page only (the popup's first paint); every match without it. */
    limit: z.number().int().min(1).max(1_000).optional(),
  }),
  z.strictObject({ type: z.literal('copy'), id: entryId, field: z.enum(['username', 'password', 'totp']) }),
  z.strictObject({ type: z.literal('fill'), id: entryId, tabId }),
  z.strictObject({ type: z.literal('save-offer'), tabId }),
  z.strictObject({ type: z.literal('served-code-verdict'), tabId }),
  z.strictObject({
    type: z.literal('answer-offer'),
    tabId,
    offerId: z.string().uuid(),
    answer: z.enum(['save', 'dismiss']),
  }),
  z.strictObject({
    type: z.literal('settings'),
    idleMinutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60),
    matchRule: z.enum(MATCH_RULES),
  }),
]);

/** The inline menu's requests: only from menu.html, framed in a tab; names and a fill, never a secret. */
export const menuRequestSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('menu-items'), token: z.string().uuid() }),
  z.strictObject({
    type: z.literal('menu-fill'),
    token: z.string().uuid(),
    id: entryId,
    x: z.number().finite().min(0).max(10_000),
    y: z.number().finite().min(0).max(10_000),
  }),
  z.strictObject({
    type: z.literal('menu-generate'),
    token: z.string().uuid(),
    x: z.number().finite().min(0).max(10_000),
    y: z.number().finite().min(0).max(10_000),
  }),
]);

/**
 * What a page's content script may tell the worker: a login form was sent, with what was typed
 * in it, or the form it sent is gone. Untrusted (a page can forge what its fields hold); the
 * worker takes the site from the browser's sender, and nothing is saved without the person's
 * yes in the popup.
 */
export const pageRequestSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('login-submitted'),
    username: text(200),
    password: text(1024).min(1),
    /** 'submit': the form's submit event; 'click': a click on its button (the form may be a script's). */
    trigger: z.enum(['submit', 'click']),
  }),
  z.strictObject({ type: z.literal('login-form-gone') }),
  /** The served-code watcher's view of a page of the connected server (decision 0082). */
  z.strictObject({
    type: z.literal('served-code'),
    files: z
      .array(
        z.strictObject({
          url: text(4096),
          sha256: z
            .string()
            .regex(/^[A-Za-z0-9+/]{43}=$/)
            .nullable(),
        }),
      )
      .max(400),
    inline: z.array(text(200)).max(40),
  }),
]);

export type Request = z.infer<typeof requestSchema>;
export type PageRequest = z.infer<typeof pageRequestSchema>;
export type MenuRequest = z.infer<typeof menuRequestSchema>;
export type RequestType = Request['type'];

export type LockState = 'disconnected' | 'signed-out' | 'second-factor' | 'locked' | 'unlocked';

export interface Status {
  state: LockState;
  server: string | null;
  username: string | null;
  idleMinutes: number;
  matchRule: (typeof MATCH_RULES)[number];
}

export interface ItemSummary {
  id: string;
  type: EntryType;
  name: string;
  username: string;
  url: string | null;
  hasTotp: boolean;
  /** The item is a login that names the tab's page under the match rule. */
  matchesTab: boolean;
  /** The popup may offer to fill it into the tab: a login for its site, or a card on an https page. */
  canFill: boolean;
}

/** Every answer: a result, or a message a person can read. */
export type Answer<T = unknown> = { ok: true; value: T } | { ok: false; error: string };

export interface FillResult {
  /** Fields filled, over every frame filled. */
  filled: number;
  /** Why nothing was filled, when nothing was. */
  refused?: string;
}

/** The served-code check of a tab on the connected server (decision 0082); null for any other tab. */
export interface ServedCodeStatus {
  /** The release whose web app the extension compares against. */
  release: string;
  /** The page checked. */
  url: string;
  matched: number;
  problems: { what: string; problem: string }[];
}

/** The popup's view of a pending save offer: never the password itself. */
export interface SaveOffer {
  offerId: string;
  /** The site's host, as the browser reported the page that sent the form. */
  host: string;
  username: string;
  /** 'save': a new item; 'update': a new password for `itemName`. */
  kind: 'save' | 'update';
  itemName: string | null;
}
