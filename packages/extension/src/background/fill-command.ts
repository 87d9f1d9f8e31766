import type { FillResult } from '../shared/messages';
import { fillFor } from './fill-item';
import { fillTab } from './fill-tab';
import { tabUrl } from './handlers';
import { readSettings } from './settings';
import { siteIndexOf } from './site-index';
import type { VaultSession } from './vault-session';

/** The shortcut found nothing to do (locked, no item for the site). */
export class FillCommandError extends Error {
  override readonly name = 'FillCommandError';
}

/**
 * The keyboard shortcut's fill: the first login (by name) for the tab's site, into the tab, by
 * the same rules as a fill from the popup (its one-time code into a code field, a multi-step
 * sign-in's step that is shown). Never a card: a card is chosen in the popup. The browser runs a command only on a person's key
 * press, so this is a user gesture the page cannot make.
 */
export async function fillActiveTab(session: VaultSession, tabId: number): Promise<FillResult> {
  const [held, { matchRule }, pageUrl] = await Promise.all([session.status(), readSettings(), tabUrl(tabId)]);
  if (held.state !== 'unlocked') throw new FillCommandError('Your vault is locked.');
  if (pageUrl === null) throw new FillCommandError('This tab shows no web page.');
  const entry = siteIndexOf(await session.entries())
    .matching(pageUrl, matchRule)
    .filter((candidate) => candidate.type === 'login')
    .sort((a, b) => a.sortKey.localeCompare(b.sortKey))[0];
  if (!entry) throw new FillCommandError('No item for this site.');
  const { fill } = await fillFor(session, entry.id);
  return fillTab(tabId, entry, fill, matchRule);
}
