import { SERVED_CODE_BADGE } from './served-code';
import { emptyDraft, type OpenEntry } from '@lockit/client-core';
import { z } from 'zod';
import type { SaveOffer } from '../shared/messages';
import { siteIndexOf } from './site-index';
import type { PageSender } from './message-router';
import { readSettings } from './settings';
import type { VaultSession } from './vault-session';

/** A sent form counts only if the page leaves it within this time (navigates or removes it). */
export const CANDIDATE_MS = 2 * 60_000;
/** An offer the person did not answer is dropped after this time. */
export const OFFER_MS = 10 * 60_000;

const STORE_KEY = 'lockit.offers';

const pendingSchema = z.strictObject({
  offerId: z.string().uuid(),
  origin: z.string(),
  username: z.string().max(200),
  password: z.string().min(1).max(1024),
  at: z.number(),
  /** False while the form was only sent; true once the page moved on and the person may be asked. */
  offered: z.boolean(),
});
type Pending = z.infer<typeof pendingSchema>;
const storeSchema = z.record(z.string(), pendingSchema).catch({});

/** What the offer resolves to against the vault now: nothing to ask, a new item, or one item's new password. */
type Decision = { kind: 'known' } | { kind: 'save' } | { kind: 'update'; entry: OpenEntry };

/**
 * Save and update offers (decision 0079): a login form sent in a tab becomes a candidate; once
 * the page moves on (a top-level navigation, a history change, or the form removed) it is an
 * offer, shown by the toolbar badge and answered in the popup.
 *
 * Security invariants:
 * - The site is the browser's word (the sender's origin, and the tab's top frame), never the
 *   message's; a frame of another origin than the tab's top frame offers nothing.
 * - Nothing is written without the person's "Save" in the popup; the popup sees the host and
 *   the user name, never the password, which stays in this worker and `storage.session`
 *   (memory only, trusted contexts only) until answered, dismissed or stale.
 * - A write is the client core's EntryWrites through the worker's integrity queue, as the web
 *   app's own edits are.
 */
export class SaveOffers {
  /** One change at a time, in the order the browser's events came: a form's report before its navigation. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly area: chrome.storage.StorageArea = chrome.storage.session) {}

  /** A content script reported a sent login form. */
  submitted(from: PageSender, username: string, password: string, now = Date.now()): Promise<void> {
    // Taken now, before the form's navigation can change what the top frame shows.
    const top =
      from.frameId === 0
        ? Promise.resolve(from.origin)
        : topFrameOf(from.tabId).then((frame) => frame && new URL(frame.url).origin);
    return this.#change(async (all) => {
      // Only the tab's own site: a frame of another origin offers nothing.
      if ((await top) !== from.origin) return;
      all[from.tabId] = { offerId: crypto.randomUUID(), origin: from.origin, username, password, at: now, offered: false };
    });
  }

  /** A password this worker generated and filled: a candidate until the form is sent with its user name. */
  generated(tabId: number, origin: string, password: string, now = Date.now()): Promise<void> {
    return this.#change((all) => {
      all[tabId] = { offerId: crypto.randomUUID(), origin, username: '', password, at: now, offered: false };
    });
  }

  /**
   * The tab's page moved on (navigation, history change) or, when `origin` is given, a page of
   * that origin reported its sent form gone: the candidate becomes an offer. Returns whether
   * the tab now has one.
   */
  async pageMovedOn(tabId: number, origin?: string, now = Date.now()): Promise<boolean> {
    let offered = false;
    await this.#change((all) => {
      const pending = all[tabId];
      if (!pending || (origin !== undefined && pending.origin !== origin)) return;
      if (!pending.offered) {
        if (now - pending.at > CANDIDATE_MS) {
          delete all[tabId];
          return;
        }
        // The offer's own time starts now.
        pending.offered = true;
        pending.at = now;
      }
      offered = true;
    });
    if (offered) await showBadge(tabId, true);
    return offered;
  }

  /** The tab's offer as the popup shows it; null when there is none or the vault has that login already. */
  async offerFor(session: VaultSession, tabId: number, now = Date.now()): Promise<SaveOffer | null> {
    const pending = await this.#offered(tabId, now);
    if (!pending) return null;
    const decision = await decide(session, pending);
    if (decision.kind === 'known') {
      await this.forget(tabId);
      return null;
    }
    return {
      offerId: pending.offerId,
      host: new URL(pending.origin).host,
      username: pending.username,
      kind: decision.kind,
      itemName: decision.kind === 'update' ? decision.entry.name : null,
    };
  }

  /** The person's answer in the popup. 'save' adds the item or sets the matching item's password. */
  async answer(session: VaultSession, tabId: number, offerId: string, answer: 'save' | 'dismiss'): Promise<string> {
    const pending = await this.#offered(tabId, Date.now());
    if (!pending || pending.offerId !== offerId) throw new Error('This offer is no longer open.');
    if (answer === 'dismiss') {
      await this.forget(tabId);
      return 'Not saved.';
    }
    const decision = await decide(session, pending);
    const writes = await session.writes();
    let said: string;
    if (decision.kind === 'update') {
      const { entry } = decision;
      const draft = await session.draft(entry.id);
      const result = await writes.update(entry.id, entry.revision, { ...draft, password: pending.password });
      session.entriesChanged();
      if (result.kind === 'conflict') throw new Error(`${entry.name} was changed elsewhere. Open it in Lockit to update it.`);
      said = `Password of ${entry.name} updated.`;
    } else if (decision.kind === 'save') {
      const host = new URL(pending.origin).hostname.replace(/^www\./, '');
      await writes.add({
        ...emptyDraft('login'),
        serviceName: host,
        username: pending.username,
        password: pending.password,
        urls: [pending.origin],
      });
      session.entriesChanged();
      said = `Saved the login for ${host}.`;
    } else {
      said = 'Lockit has this login already.';
    }
    await this.forget(tabId);
    return said;
  }

  async forget(tabId: number): Promise<void> {
    await this.#change((all) => {
      delete all[tabId];
    });
    await showBadge(tabId, false);
  }

  /** The badge again after the tab navigated (the browser may reset a tab's badge when it does). */
  async refreshBadge(tabId: number): Promise<void> {
    if (await this.#offered(tabId, Date.now())) await showBadge(tabId, true);
  }

  async #offered(tabId: number, now: number): Promise<Pending | null> {
    const pending = (await this.#read())[tabId];
    if (!pending?.offered) return null;
    if (now - pending.at > OFFER_MS) {
      await this.forget(tabId);
      return null;
    }
    return pending;
  }

  async #read(): Promise<Record<string, Pending>> {
    return storeSchema.parse((await this.area.get(STORE_KEY))[STORE_KEY] ?? {});
  }

  #change(edit: (all: Record<string, Pending>) => void | Promise<void>): Promise<void> {
    const run = this.#queue.then(async () => {
      const all = await this.#read();
      await edit(all);
      // No offer, no key: storage.session then holds nothing of this feature.
      if (Object.keys(all).length === 0) await this.area.remove(STORE_KEY);
      else await this.area.set({ [STORE_KEY]: all });
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

/**
 * Whether the vault has this login: an item for the site with this user name (case aside) and
 * this password is known; with another password it is the one to update; else a new item.
 */
async function decide(session: VaultSession, pending: Pending): Promise<Decision> {
  const { matchRule } = await readSettings();
  const page = `${pending.origin}/`;
  const sameUser = siteIndexOf(await session.entries())
    .matching(page, matchRule)
    .filter((entry) => entry.type === 'login' && entry.username.toLowerCase() === pending.username.toLowerCase());
  let toUpdate: OpenEntry | undefined;
  for (const entry of sameUser) {
    const { password } = await session.secrets(entry.id);
    if (password === pending.password) return { kind: 'known' };
    toUpdate ??= entry;
  }
  return toUpdate ? { kind: 'update', entry: toUpdate } : { kind: 'save' };
}

async function topFrameOf(tabId: number): Promise<{ url: string } | null> {
  try {
    const top = await chrome.webNavigation.getFrame({ tabId, frameId: 0 });
    return top && URL.canParse(top.url) ? top : null;
  } catch {
    return null;
  }
}

async function showBadge(tabId: number, shown: boolean): Promise<void> {
  try {
    // A web vault that failed the served-code check keeps its warning: an offer never hides it.
    if ((await chrome.action.getBadgeText({ tabId })) === SERVED_CODE_BADGE) return;
    await chrome.action.setBadgeText({ tabId, text: shown ? '1' : '' });
    await chrome.action.setTitle({ tabId, title: shown ? 'Lockit: save this login?' : 'Lockit' });
  } catch {
    // The tab is gone: nothing to show.
  }
}
