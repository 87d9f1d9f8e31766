import { DEFAULT_GENERATOR_SETTINGS, generatePassword } from '@lockit/client-core';
import { fillInFrame } from '../page/fill-in-frame';
import type { Answer, FillResult, MenuRequest } from '../shared/messages';
import { fillFor } from './fill-item';
import { entryMatches, fillTab } from './fill-tab';
import { siteIndexOf } from './site-index';
import type { MenuSender } from './message-router';
import type { SaveOffers } from './save-offers';
import { readSettings } from './settings';
import type { VaultSession } from './vault-session';

/** What the menu shows of an item: never a secret. */
export interface MenuItem {
  id: string;
  name: string;
  username: string;
}

/**
 * The inline menu's two requests. The menu's frame is the browser's word (sender tab and
 * frame); the page it sits in is that frame's parent, whose address the browser reports too.
 *
 * Security invariants: the menu gets names and user names only, of the items that match the
 * page it is in, and only when that page may be filled (the top frame, or a frame
 * same-origin with it). A fill happens only once the content script of that page answered
 * that the menu was plainly visible under the click (menu-guard), and only into that page.
 */
export async function handleMenu(
  session: VaultSession,
  offers: SaveOffers,
  request: MenuRequest,
  from: MenuSender,
): Promise<Answer> {
  try {
    const page = await pageOf(from.tabId, request.token);
    if (page === null) return { ok: true, value: request.type === 'menu-items' ? [] : { filled: 0, refused: 'No page here.' } };
    const { matchRule } = await readSettings();
    // A generated password needs no open vault: it is made here and kept for the save offer.
    if (request.type === 'menu-generate') {
      const refused = await verifyClick(from.tabId, page.frameId, request);
      if (refused !== null) return { ok: true, value: { filled: 0, refused } satisfies FillResult };
      return { ok: true, value: await fillGenerated(offers, from.tabId, page.frameId) };
    }
    if ((await session.status()).state !== 'unlocked')
      throw new Error('Your vault is locked. Open Lockit from the toolbar to unlock it.');
    if (request.type === 'menu-items') {
      const items: MenuItem[] = siteIndexOf(await session.entries())
        .matching(page.url, matchRule)
        .filter((entry) => entry.type === 'login' && entryMatches(entry, page.topUrl, matchRule))
        .map((entry) => ({ id: entry.id, name: entry.name, username: entry.username }));
      return { ok: true, value: items };
    }
    const refused = await verifyClick(from.tabId, page.frameId, request);
    if (refused !== null) return { ok: true, value: { filled: 0, refused } satisfies FillResult };
    const { entry, fill } = await fillFor(session, request.id);
    // The menu lists logins only; an id of anything else is refused here too.
    if (fill.kind !== 'login') throw new Error('The inline menu fills logins only.');
    return { ok: true, value: await fillTab(from.tabId, entry, fill, matchRule, { onlyFrameId: page.frameId }) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : 'Something went wrong.' };
  }
}

/** The content script's verdict on the click: null when the menu was plainly visible under it, else why not. */
async function verifyClick(
  tabId: number,
  frameId: number,
  { token, x, y }: { token: string; x: number; y: number },
): Promise<string | null> {
  const verdict = (await chrome.tabs
    .sendMessage(tabId, { type: 'lockit-verify-menu', token, x, y }, { frameId })
    .catch(() => undefined)) as { visible?: boolean; reason?: string } | undefined;
  return verdict?.visible === true ? null : (verdict?.reason ?? 'The menu could not be checked.');
}

/**
 * A new password from the client core's generator (the default settings: 20 characters of all
 * four kinds), filled into the new-password fields of the menu's frame only (the exact
 * document, its origin checked again inside), then kept as the tab's save candidate.
 */
async function fillGenerated(offers: SaveOffers, tabId: number, frameId: number): Promise<FillResult> {
  const frames = (await chrome.webNavigation.getAllFrames({ tabId })) ?? [];
  const frame = frames.find((candidate) => candidate.frameId === frameId);
  if (!frame || !URL.canParse(frame.url)) return { filled: 0, refused: 'No page here.' };
  const origin = new URL(frame.url).origin;
  const password = generatePassword(DEFAULT_GENERATOR_SETTINGS.password);
  let answer: FillResult | undefined;
  try {
    const results = await chrome.scripting.executeScript({
      target: { tabId, documentIds: [frame.documentId] },
      func: fillInFrame,
      args: [origin, { kind: 'new-password', password }],
    });
    answer = results[0]?.result as FillResult | undefined;
  } catch {
    return { filled: 0, refused: 'The page changed; nothing was filled.' };
  }
  if (answer && answer.filled > 0) await offers.generated(tabId, origin, password);
  return answer ?? { filled: 0, refused: 'Nothing was filled.' };
}

/**
 * The frame whose content script placed the menu of `token`, and the tab's top address; null
 * when none did or the frame may not be filled. The browser does not list an extension's own
 * frames among a tab's frames, so the frame is found by asking each frame's content script
 * (the extension's isolated world: a page cannot answer for it).
 */
async function pageOf(tabId: number, token: string): Promise<{ frameId: number; url: string; topUrl: string } | null> {
  const frames = (await chrome.webNavigation.getAllFrames({ tabId })) ?? [];
  const top = frames.find((frame) => frame.frameId === 0);
  if (!top || !URL.canParse(top.url)) return null;
  for (const frame of frames) {
    if (!URL.canParse(frame.url) || new URL(frame.url).origin !== new URL(top.url).origin) continue;
    const answer = (await chrome.tabs
      .sendMessage(tabId, { type: 'lockit-owns-menu', token }, { frameId: frame.frameId, documentId: frame.documentId })
      .catch(() => undefined)) as { owns?: boolean } | undefined;
    if (answer?.owns === true) return { frameId: frame.frameId, url: frame.url, topUrl: top.url };
  }
  return null;
}
