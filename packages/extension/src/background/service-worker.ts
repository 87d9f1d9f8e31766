import { FillCommandError, fillActiveTab } from './fill-command';
import { handle } from './handlers';
import { KeyCustody } from './key-custody';
import { followWhilePopupOpen, isPopupLivePort } from './live-vault';
import { handleMenu } from './menu-handlers';
import { checkRequest } from './message-router';
import { SaveOffers } from './save-offers';
import { ServedCodeCheck } from './served-code';
import { readSettings } from './settings';
import { VaultSession } from './vault-session';

/**
 * The extension's service worker: it alone holds the vault key and talks to the server. The
 * popup and the inline menu (its own pages) ask it through runtime messages; web pages and
 * content scripts get nothing.
 */
const custody = new KeyCustody(chrome.storage.session);
const session = new VaultSession(custody);
const offers = new SaveOffers(chrome.storage.session);
const servedCode = new ServedCodeCheck(chrome.storage.session);
const extensionBase = chrome.runtime.getURL('');

// Content scripts must never read the key's session copy (the default; set again in case a
// future change loosened it).
void chrome.storage.session.setAccessLevel?.({ accessLevel: 'TRUSTED_CONTEXTS' });

chrome.runtime.onMessage.addListener((message: unknown, sender, reply) => {
  const checked = checkRequest(message, sender, chrome.runtime.id, extensionBase);
  if (!checked.ok) {
    reply(checked.answer);
    return false;
  }
  if (checked.kind === 'page') {
    // A page's report: recorded, and answered with nothing a page could learn from.
    const { request, from } = checked;
    const noting =
      request.type === 'served-code'
        ? servedCode.report(from, request)
        : request.type === 'login-submitted'
          ? offers.submitted(from, request.username, request.password)
          : offers.pageMovedOn(from.tabId, from.origin);
    void noting.catch(() => undefined).then(() => reply({ ok: true, value: null }));
    return true;
  }
  const answering =
    checked.kind === 'menu'
      ? handleMenu(session, offers, checked.request, checked.from)
      : handle(session, offers, servedCode, checked.request);
  void answering.then(reply);
  // The answer comes asynchronously.
  return true;
});

// The open popup's port: while it is connected the vault is followed live (live-vault.ts). Only
// this extension's popup page may open it (a content script's sender is the web page's URL);
// any other port is closed at once.
chrome.runtime.onConnect.addListener((port) => {
  if (!isPopupLivePort(port, chrome.runtime.id, extensionBase)) {
    port.disconnect();
    return;
  }
  void readSettings().then(({ server, signedIn }) => {
    if (server && signedIn) followWhilePopupOpen(port, session, server);
  });
});

// Messages from other extensions or from web pages (externally_connectable is not declared,
// so pages cannot reach us; another extension gets a refusal and nothing else).
chrome.runtime.onMessageExternal?.addListener((_message, _sender, reply) => {
  reply({ ok: false, error: 'Refused.' });
  return false;
});

/** Lock on idle: the person's minutes; the screen locking locks the vault at once. */
async function applyIdleLock(): Promise<void> {
  const { idleMinutes } = await readSettings();
  chrome.idle.setDetectionInterval(Math.max(15, idleMinutes * 60));
}
chrome.idle.onStateChanged.addListener((state) => {
  if (state === 'idle' || state === 'locked') void session.lock();
});
chrome.storage.onChanged.addListener((_changes, area) => {
  if (area !== 'local') return;
  void applyIdleLock();
  // A newly connected server's pages get the served-code watcher; the old server's lose it.
  void servedCode.syncWatcher();
});
void applyIdleLock();
void servedCode.syncWatcher();

// The keyboard shortcut: a person's key press in the browser, the same fill as the popup's.
chrome.commands.onCommand.addListener((command, tab) => {
  if (command !== 'fill-login' || tab?.id === undefined) return;
  void fillActiveTab(session, tab.id).catch((error: unknown) => {
    if (!(error instanceof FillCommandError)) throw error;
  });
});

// A sent login form becomes an offer once its page moves on: a new document in the tab, or a
// single-page app's history change. The badge is shown again on the new page.
chrome.webNavigation.onCommitted.addListener(({ tabId, frameId }) => {
  if (frameId !== 0) return;
  void offers.pageMovedOn(tabId);
  // A new document: the last one's verdict does not describe it.
  void servedCode.forget(tabId).then(() => servedCode.showBadge(tabId));
});
chrome.webNavigation.onHistoryStateUpdated.addListener(({ tabId, frameId }) => {
  if (frameId === 0) void offers.pageMovedOn(tabId);
});
chrome.webNavigation.onCompleted.addListener(({ tabId, frameId }) => {
  if (frameId === 0) void offers.refreshBadge(tabId).then(() => servedCode.showBadge(tabId));
});
chrome.tabs.onRemoved.addListener((tabId) => {
  void offers.forget(tabId);
  void servedCode.forget(tabId);
});
