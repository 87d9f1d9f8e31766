import { requestSchema, type Answer, type Request } from '../shared/messages';

/** Who sent a message, as the browser tells it (chrome.runtime.MessageSender's parts we read). */
export interface Sender {
  id?: string | undefined;
  url?: string | undefined;
  origin?: string | undefined;
  tab?: unknown;
  frameId?: number | undefined;
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
 * pages, and its body one of the requests of `requestSchema` exactly. Everything the worker
 * does on a message (sign-in, unlock, secrets, fills) is reachable only through here.
 *
 * Security invariants: content scripts and web pages get nothing from this router, not even
 * the lock state; a message that does not parse changes nothing and gets a plain refusal.
 */
export function checkRequest(
  message: unknown,
  sender: Sender,
  extensionId: string,
  extensionBase: string,
): { ok: true; request: Request } | { ok: false; answer: Answer } {
  if (!isOwnPage(sender, extensionId, extensionBase)) return { ok: false, answer: { ok: false, error: REFUSED_SENDER } };
  const parsed = requestSchema.safeParse(message);
  if (!parsed.success) return { ok: false, answer: { ok: false, error: REFUSED_MESSAGE } };
  return { ok: true, request: parsed.data };
}
