import type { PageSender } from './message-router';
import type { ServedCodeStatus } from '../shared/messages';
import { compareServedCode, sha256Base64, type PageView, type WebAppFiles } from '../shared/served-code';
import { readSettings } from './settings';

/** Written in by the build (build.mjs, tools/web-app-files.mjs): the web app of this release. */
declare const LOCKIT_WEB_APP_FILES: WebAppFiles;

/** The toolbar badge of a tab whose web vault failed the check; save offers never overwrite it. */
export const SERVED_CODE_BADGE = '!';
const WARNING_TITLE = 'Lockit: this web vault runs code that is not Lockit’s. Open Lockit for details.';
const WATCHER_ID = 'lockit-served-code';
const KEY = 'lockit.served-code';

type Verdicts = Record<string, ServedCodeStatus>;

/**
 * The served-code check in the service worker (decision 0082): it registers the watcher for the
 * connected server's pages, fetches each file the watcher reports once more itself (no cache,
 * no cookies), judges the page (compareServedCode), keeps the verdict per tab in
 * storage.session for the popup, and shows a red "!" badge on a tab that failed. The badge
 * and the popup are the browser's and the extension's: a page can neither draw nor hide them.
 */
export class ServedCodeCheck {
  readonly #storage: chrome.storage.StorageArea;
  readonly #expected: WebAppFiles;
  #chain: Promise<unknown> = Promise.resolve();

  constructor(storage: chrome.storage.StorageArea, expected: WebAppFiles = LOCKIT_WEB_APP_FILES) {
    this.#storage = storage;
    this.#expected = expected;
  }

  /** A watcher's report: judged only for the top frame of a page on the connected server. */
  async report(from: PageSender, view: PageView): Promise<void> {
    const { server } = await readSettings();
    if (server === null || from.origin !== server || from.frameId !== 0) return;
    const sameOrigin = view.files.map(({ url }) => url).filter((url) => URL.canParse(url) && new URL(url).origin === server);
    const refetched = new Map(await Promise.all(sameOrigin.map(async (url) => [url, await refetch(url)] as const)));
    const verdict = compareServedCode(this.#expected, server, view, refetched);
    const status: ServedCodeStatus = {
      release: chrome.runtime.getManifest().version,
      url: from.url,
      matched: verdict.matched,
      problems: verdict.problems,
    };
    await this.#change((all) => {
      all[from.tabId] = status;
    });
    await this.showBadge(from.tabId);
  }

  /** The popup's view of a tab: its verdict while the tab still shows a page of the connected server. */
  async verdict(tabId: number, pageUrl: string | null): Promise<ServedCodeStatus | null> {
    const { server } = await readSettings();
    const status = (await this.#all())[tabId];
    if (!status || server === null || pageUrl === null || !URL.canParse(pageUrl) || new URL(pageUrl).origin !== server)
      return null;
    return new URL(status.url).origin === server ? status : null;
  }

  /** A new document in the tab: its verdict is the new page's, once its watcher reports. */
  async forget(tabId: number): Promise<void> {
    if (!((await this.#all())[tabId] ?? null)) return;
    await this.#change((all) => {
      delete all[tabId];
    });
  }

  /** The badge for the tab's verdict (again after a navigation, which may reset it). */
  async showBadge(tabId: number): Promise<void> {
    const failed = ((await this.#all())[tabId]?.problems.length ?? 0) > 0;
    try {
      if (failed) {
        await chrome.action.setBadgeBackgroundColor({ tabId, color: '#b91c1c' });
        await chrome.action.setBadgeText({ tabId, text: SERVED_CODE_BADGE });
        await chrome.action.setTitle({ tabId, title: WARNING_TITLE });
      } else if ((await chrome.action.getBadgeText({ tabId })) === SERVED_CODE_BADGE) {
        await chrome.action.setBadgeText({ tabId, text: '' });
        await chrome.action.setTitle({ tabId, title: 'Lockit' });
      }
    } catch {
      // The tab is gone: nothing to show.
    }
  }

  /** The watcher runs on the connected server's pages only; none when not connected. */
  syncWatcher(): Promise<void> {
    const next = this.#chain.then(async () => {
      const { server } = await readSettings();
      const registered = await chrome.scripting.getRegisteredContentScripts({ ids: [WATCHER_ID] });
      const matches = server === null ? [] : [watcherPattern(server)];
      if (registered[0]?.matches?.join() === matches.join() && matches.length > 0) return;
      if (registered.length > 0) await chrome.scripting.unregisterContentScripts({ ids: [WATCHER_ID] });
      if (matches.length === 0) return;
      await chrome.scripting.registerContentScripts([
        {
          id: WATCHER_ID,
          matches,
          js: ['served-code-watch.js'],
          runAt: 'document_start',
          allFrames: false,
          persistAcrossSessions: true,
        },
      ]);
    });
    this.#chain = next.catch(() => undefined);
    return next;
  }

  async #all(): Promise<Verdicts> {
    const stored: unknown = (await this.#storage.get(KEY))[KEY];
    return typeof stored === 'object' && stored !== null ? (stored as Verdicts) : {};
  }

  #change(edit: (all: Verdicts) => void): Promise<void> {
    const next = this.#chain.then(async () => {
      const all = await this.#all();
      edit(all);
      await this.#storage.set({ [KEY]: all });
    });
    this.#chain = next.catch(() => undefined);
    return next;
  }
}

/**
 * A match pattern for the server's pages: scheme and host (a pattern has no port; the worker
 * judges only reports from the server's exact origin).
 */
export function watcherPattern(server: string): string {
  const url = new URL(server);
  return `${url.protocol}//${url.hostname}/*`;
}

/**
 * The file fetched again by the extension, past every cache and without the person's cookies: a
 * second look that a server serving one file to everyone cannot answer differently from the
 * page's. Null when the request fails.
 */
async function refetch(url: string): Promise<string | null> {
  try {
    const response = await fetch(url, { cache: 'no-store', credentials: 'omit', redirect: 'error' });
    return response.ok ? await sha256Base64(await response.arrayBuffer()) : null;
  } catch {
    return null;
  }
}
