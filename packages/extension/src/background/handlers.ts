import type { Answer, FillResult, ItemSummary, Request } from '../shared/messages';
import { fillFor } from './fill-item';
import { fillTab } from './fill-tab';
import { itemSummaries } from './item-summaries';
import { siteIndexOf } from './site-index';
import type { SaveOffers } from './save-offers';
import type { ServedCodeCheck } from './served-code';
import { readSettings, serverOrigin } from './settings';
import { totpCode } from './totp-code';
import type { VaultSession } from './vault-session';

/** The answer to one checked request from the extension's own page. */
export async function handle(
  session: VaultSession,
  offers: SaveOffers,
  servedCode: ServedCodeCheck,
  request: Request,
): Promise<Answer> {
  try {
    return { ok: true, value: await run(session, offers, servedCode, request) };
  } catch (error) {
    return { ok: false, error: error instanceof Error && error.message ? error.message : 'Something went wrong.' };
  }
}

async function run(session: VaultSession, offers: SaveOffers, servedCode: ServedCodeCheck, request: Request): Promise<unknown> {
  switch (request.type) {
    case 'status':
      return session.status();
    case 'connect':
      return session.connect(serverOrigin(request.server));
    case 'sign-in':
      return session.signIn(request.username, request.password);
    case 'second-factor':
      return session.secondFactor(request.method, request.code);
    case 'unlock':
      return session.unlock(request.password);
    case 'lock':
      return session.lock();
    case 'sign-out':
      return session.signOut();
    case 'settings':
      return session.setPreferences(request.idleMinutes, request.matchRule);
    case 'items':
      return items(session, request.query, request.tabId, request.limit);
    case 'copy':
      return copyValue(session, request.id, request.field);
    case 'fill':
      return fill(session, request.id, request.tabId);
    case 'save-offer':
      return offers.offerFor(session, request.tabId);
    case 'served-code-verdict':
      return servedCode.verdict(request.tabId, await tabUrl(request.tabId));
    case 'answer-offer':
      return offers.answer(session, request.tabId, request.offerId, request.answer);
  }
}

/** The vault's items, the tab's site's first, then by name; no secret in any of them. */
async function items(session: VaultSession, query: string, tabId: number | undefined, limit?: number): Promise<ItemSummary[]> {
  const [entries, { matchRule }] = await Promise.all([session.entries(), readSettings()]);
  const pageUrl = tabId === undefined ? null : await tabUrl(tabId);
  const forTab = new Set(pageUrl === null ? [] : siteIndexOf(entries).matching(pageUrl, matchRule));
  // Every match unless a first page was asked for: the popup's list draws only the rows in view.
  return itemSummaries(entries, { query, forTab, pageUrl, ...(limit !== undefined ? { limit } : {}) });
}

async function copyValue(session: VaultSession, id: string, field: 'username' | 'password' | 'totp'): Promise<string> {
  const { entry, password, totp } = await session.secrets(id);
  if (field === 'username') return entry.username;
  if (field === 'password') return password;
  if (totp === null || totp === '') throw new Error('This item has no one-time code.');
  return totpCode(totp);
}

async function fill(session: VaultSession, id: string, tabId: number): Promise<FillResult> {
  const [{ entry, fill: what }, { matchRule }] = await Promise.all([fillFor(session, id), readSettings()]);
  return fillTab(tabId, entry, what, matchRule);
}

/** The tab's top-level address, as the browser knows it; null for a tab that is gone. */
export async function tabUrl(tabId: number): Promise<string | null> {
  try {
    const frame = await chrome.webNavigation.getFrame({ tabId, frameId: 0 });
    return frame?.url ?? null;
  } catch {
    return null;
  }
}
