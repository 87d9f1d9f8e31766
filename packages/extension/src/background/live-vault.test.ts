import { describe, expect, it } from 'vitest';
import { isPopupLivePort } from './live-vault';

const ID = 'abcdefghijklmnopabcdefghijklmnop';
const BASE = `chrome-extension://${ID}/`;

describe('the live port', () => {
  it('is opened by this extension’s popup page only', () => {
    expect(isPopupLivePort({ name: 'live', sender: { id: ID, url: `${BASE}popup.html` } }, ID, BASE)).toBe(true);
    expect(isPopupLivePort({ name: 'live', sender: { id: ID, url: `${BASE}popup.html?tab=3` } }, ID, BASE)).toBe(true);
  });

  it('is refused to a content script (a web page’s URL), another extension, another page of ours, or another name', () => {
    for (const port of [
      { name: 'live', sender: { id: ID, url: 'https://bank.test/login' } },
      { name: 'live', sender: { id: 'otherextensionidotherextensionid', url: `${BASE}popup.html` } },
      { name: 'live', sender: { id: ID, url: `${BASE}menu.html` } },
      { name: 'live', sender: { id: ID, url: `https://evil.test/${BASE}popup.html` } },
      { name: 'live' },
      { name: 'other', sender: { id: ID, url: `${BASE}popup.html` } },
    ])
      expect(isPopupLivePort(port, ID, BASE)).toBe(false);
  });
});
