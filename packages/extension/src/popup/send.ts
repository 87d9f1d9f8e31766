import type { Answer, Request } from '../shared/messages';

/** Asks the service worker; resolves with its value or rejects with its readable message. */
export async function send<T>(request: Request): Promise<T> {
  const answer = (await chrome.runtime.sendMessage(request)) as Answer<T> | undefined;
  if (!answer) throw new Error('Lockit did not answer. Try again.');
  if (!answer.ok) throw new Error(answer.error);
  return answer.value;
}

/**
 * The tab this popup acts on: the one named in its address (a popup opened in a window of its
 * own for a tab), else the active tab of its window.
 */
export async function targetTabId(): Promise<number | undefined> {
  const named = new URLSearchParams(location.search).get('tab');
  if (named !== null && /^\d{1,10}$/.test(named)) return Number(named);
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  return tab?.id;
}
