import type { Answer, FillResult, MenuRequest } from '../shared/messages';
import { entryMatches, fillTab } from './fill-tab';
import type { MenuSender } from './message-router';
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
export async function handleMenu(session: VaultSession, request: MenuRequest, from: MenuSender): Promise<Answer> {
  try {
    const page = await pageOf(from.tabId, request.token);
    if (page === null) return { ok: true, value: request.type === 'menu-items' ? [] : { filled: 0, refused: 'No page here.' } };
    const { matchRule } = await readSettings();
    if ((await session.status()).state !== 'unlocked')
      throw new Error('Your vault is locked. Open Lockit from the toolbar to unlock it.');
    if (request.type === 'menu-items') {
      const items: MenuItem[] = (await session.entries())
        .filter(
          (entry) =>
            entry.type === 'login' && entryMatches(entry, page.url, matchRule) && entryMatches(entry, page.topUrl, matchRule),
        )
        .map((entry) => ({ id: entry.id, name: entry.name, username: entry.username }));
      return { ok: true, value: items };
    }
    const verdict = (await chrome.tabs
      .sendMessage(
        from.tabId,
        { type: 'lockit-verify-menu', token: request.token, x: request.x, y: request.y },
        { frameId: page.frameId },
      )
      .catch(() => undefined)) as { visible?: boolean; reason?: string } | undefined;
    if (verdict?.visible !== true) {
      const result: FillResult = { filled: 0, refused: verdict?.reason ?? 'The menu could not be checked.' };
      return { ok: true, value: result };
    }
    const { entry, password } = await session.secrets(request.id);
    return { ok: true, value: await fillTab(from.tabId, entry, { password }, matchRule, { onlyFrameId: page.frameId }) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : 'Something went wrong.' };
  }
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
