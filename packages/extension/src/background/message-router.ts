import {
  menuRequestSchema,
  pageRequestSchema,
  requestSchema,
  type Answer,
  type MenuRequest,
  type PageRequest,
  type Request,
} from '../shared/messages';

/** Who sent a message, as the browser tells it (chrome.runtime.MessageSender's parts we read). */
export interface Sender {
  id?: string | undefined;
  url?: string | undefined;
  origin?: string | undefined;
  tab?: { id?: number | undefined } | undefined;
  frameId?: number | undefined;
  documentId?: string | undefined;
}

/** Where a checked menu request came from: the browser's tab and frame of the menu's iframe. */
export interface MenuSender {
  tabId: number;
  frameId: number;
}

/** Where a content script's message came from, by the browser's word: never by the message. */
export interface PageSender {
  tabId: number;
  frameId: number;
  /** The sending frame's origin (http or https). */
  origin: string;
  /** The sending frame's address, as the browser reports it. */
  url: string;
}

/**
 * The page a content script runs in, as the browser reports it; null for anything else. A
 * content script's sender is the extension itself, in a tab, with the page's own address.
 */
export function pageSenderOf(sender: Sender, extensionId: string, extensionBase: string): PageSender | null {
  if (sender.id !== extensionId) return null;
  const tabId = sender.tab?.id;
  const { frameId, url } = sender;
  if (tabId === undefined || frameId === undefined || url === undefined || url.startsWith(extensionBase)) return null;
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  // An opaque or different origin (a sandboxed frame, a data: document) is no site to save for.
  if (sender.origin !== undefined && sender.origin !== parsed.origin) return null;
  return { tabId, frameId, origin: parsed.origin, url: parsed.href };
}

export const REFUSED_SENDER = 'Refused: only Lockit’s own pages may ask for this.';
export const REFUSED_MESSAGE = 'Refused: not a message Lockit understands.';

/**
 * Whether a message comes from one of the extension's own pages (the popup, opened as a popup
 * or in a tab or window of its own): the browser's word about the sender's id and URL, which a
 * web page or a content script cannot choose. A content script's sender URL is its page's.
 */
export function isOwnPage(sender: Sender, extensionId: string, extensionBase: string): boolean {
  if (sender.id !== extensionId) return false;
  const url = sender.url ?? '';
  const origin = sender.origin ?? (URL.canParse(url) ? new URL(url).origin : '');
  return url.startsWith(extensionBase) && `${origin}/` === extensionBase;
}

/**
 * Checks a message before any handler sees it: its sender must be one of the extension's own
 * pages, and its body one of the requests of `requestSchema` exactly (the inline menu's of
 * `menuRequestSchema`); a content script's only one of `pageRequestSchema`, its site taken
 * from the sender. Everything the worker
 * does on a message (sign-in, unlock, secrets, fills) is reachable only through here.
 *
 * Security invariants: content scripts and web pages get nothing from this router, not even
 * the lock state (a content script's report is answered with nothing but an acknowledgement);
 * a message that does not parse changes nothing and gets a plain refusal.
 */
export function checkRequest(
  message: unknown,
  sender: Sender,
  extensionId: string,
  extensionBase: string,
):
  | { ok: true; kind: 'popup'; request: Request }
  | { ok: true; kind: 'menu'; request: MenuRequest; from: MenuSender }
  | { ok: true; kind: 'page'; request: PageRequest; from: PageSender }
  | { ok: false; answer: Answer } {
  // A content script may only report a sent login form (pageRequestSchema): nothing it can
  // send reads the vault, fills, or saves; the person's yes in the popup does.
  const page = pageSenderOf(sender, extensionId, extensionBase);
  if (page !== null) {
    // Anything else from a page's content script is a request only Lockit's own pages may make.
    const parsed = pageRequestSchema.safeParse(message);
    if (!parsed.success) return { ok: false, answer: { ok: false, error: REFUSED_SENDER } };
    return { ok: true, kind: 'page', request: parsed.data, from: page };
  }
  if (!isOwnPage(sender, extensionId, extensionBase)) return { ok: false, answer: { ok: false, error: REFUSED_SENDER } };
  const path = new URL(sender.url!).pathname;
  // The inline menu lives inside web pages: it may ask only for the names of its frame's
  // items and for a fill the content script then checks; never for the popup's requests.
  if (path === '/menu.html') {
    const tabId = sender.tab?.id;
    const frameId = sender.frameId;
    if (tabId === undefined || frameId === undefined || frameId === 0)
      return { ok: false, answer: { ok: false, error: REFUSED_SENDER } };
    const parsed = menuRequestSchema.safeParse(message);
    if (!parsed.success) return { ok: false, answer: { ok: false, error: REFUSED_MESSAGE } };
    return { ok: true, kind: 'menu', request: parsed.data, from: { tabId, frameId } };
  }
  if (path !== '/popup.html') return { ok: false, answer: { ok: false, error: REFUSED_SENDER } };
  const parsed = requestSchema.safeParse(message);
  if (!parsed.success) return { ok: false, answer: { ok: false, error: REFUSED_MESSAGE } };
  return { ok: true, kind: 'popup', request: parsed.data };
}
