import type { OpenEntry } from '@lockit/client-core';
import { fillInFrame, type FrameFill } from '../page/fill-in-frame';
import type { FillResult } from '../shared/messages';
import { addressMatches, type MatchRule } from '../shared/url-match';

/** The addresses an entry names (its list, or the legacy single one). */
export function addressesOf(entry: Pick<OpenEntry, 'urls' | 'url'>): string[] {
  return entry.urls.length > 0 ? [...entry.urls] : entry.url ? [entry.url] : [];
}

/**
 * Whether the entry names the page at `pageUrl`: each address under its own match rule when it
 * has one (saved with the item), else under `defaultRule` (the extension's setting).
 */
export function entryMatches(
  entry: Pick<OpenEntry, 'urls' | 'url' | 'urlRules'>,
  pageUrl: string,
  defaultRule: MatchRule,
): boolean {
  return addressesOf(entry).some((address) => addressMatches(address, pageUrl, ruleOf(entry, address, defaultRule)));
}

/** The rule an address of the entry is compared under. */
export function ruleOf(entry: Pick<OpenEntry, 'urlRules'>, address: string, defaultRule: MatchRule): MatchRule {
  return entry.urlRules?.[address] ?? defaultRule;
}

/** How long one fill waits for a form still being drawn (a single-page app's, after load). */
const FORM_WAIT_MS = 4000;

interface Frame {
  frameId: number;
  documentId: string;
  url: string;
}

/**
 * Fills one item (a login, or a card) into the frames of a tab that may receive it. Called only from a message of
 * the popup (a click or key press there), a click on the inline menu that its page's content
 * script confirmed visible, or a keyboard command: never on a page's load, never on a page's
 * request. `onlyFrameId` limits the fill to the inline menu's own frame.
 *
 * Security invariants:
 * - Where a frame is, and which site it shows, is the browser's word (webNavigation), never
 *   the page's: a page cannot claim another origin.
 * - A login: the top frame must match the entry; another frame only when it is same-origin
 *   with the top frame and matches too. A card names no site: it goes only into an https
 *   top frame and frames same-origin with it. A cross-origin frame (an ad, a widget, a
 *   sibling subdomain, a payment provider's frame) never gets a fill.
 * - The fill is addressed to the exact document seen (documentIds): a frame that navigated in
 *   between is a different document and gets nothing; the injected code checks the origin
 *   again before it touches a field.
 */
export async function fillTab(
  tabId: number,
  entry: OpenEntry,
  fill: FrameFill,
  rule: MatchRule,
  { onlyFrameId }: { onlyFrameId?: number } = {},
): Promise<FillResult> {
  const frames = ((await chrome.webNavigation.getAllFrames({ tabId })) ?? []) as Frame[];
  const top = frames.find((frame) => frame.frameId === 0);
  if (!top || !URL.canParse(top.url)) return { filled: 0, refused: 'This tab shows no web page.' };
  // A card is for any site the person pays on, but never over plain http.
  const allowed = (url: string) => (fill.kind === 'card' ? new URL(url).protocol === 'https:' : entryMatches(entry, url, rule));
  if (!allowed(top.url))
    return {
      filled: 0,
      refused: fill.kind === 'card' ? 'Cards are filled only into https pages.' : 'This item is not for this site.',
    };
  const topOrigin = new URL(top.url).origin;
  const targets = frames.filter(
    (frame) =>
      (onlyFrameId === undefined || frame.frameId === onlyFrameId) &&
      URL.canParse(frame.url) &&
      new URL(frame.url).origin === topOrigin &&
      allowed(frame.url),
  );
  const fillFrames = (waitMs: number) =>
    Promise.all(
      targets.map(async (frame) => {
        try {
          const results = await chrome.scripting.executeScript({
            target: { tabId, documentIds: [frame.documentId] },
            func: fillInFrame,
            args: [topOrigin, fill, waitMs],
          });
          return results[0]?.result as (FillResult & { absent?: true }) | undefined;
        } catch {
          // The document is gone (navigated or closed) or the browser refused: nothing filled there.
          return undefined;
        }
      }),
    );
  let answers = await fillFrames(0);
  // No frame has a form of the kind yet (a page still drawing it): the same fill looks again
  // for a few seconds, every frame at once, by the same checks.
  if (answers.length > 0 && answers.every((answer) => answer === undefined || answer.absent === true))
    answers = await fillFrames(FORM_WAIT_MS);
  const filled = answers.reduce((sum, answer) => sum + (answer?.filled ?? 0), 0);
  const refused = answers.find((answer) => answer?.refused !== undefined)?.refused;
  return filled > 0 ? { filled } : { filled: 0, refused: refused ?? 'No login form on this page.' };
}
