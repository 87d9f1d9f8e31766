import { describe, expect, it } from 'vitest';
import { checkRequest, REFUSED_MESSAGE, REFUSED_SENDER } from './message-router';

const ID = 'abcdefghijklmnopabcdefghijklmnop';
const BASE = `chrome-extension://${ID}/`;
const popup = { id: ID, url: `${BASE}popup.html`, origin: `chrome-extension://${ID}` };
const ITEM = '5f0c6a52-8d7e-4f3a-9b1c-2d3e4f5a6b7c';

describe('checkRequest', () => {
  it('passes a well-formed request from the extension’s own page', () => {
    expect(checkRequest({ type: 'copy', id: ITEM, field: 'password' }, popup, ID, BASE)).toEqual({
      ok: true,
      kind: 'popup',
      request: { type: 'copy', id: ITEM, field: 'password' },
    });
  });

  it('refuses every sender that is not one of the extension’s pages', () => {
    const content = { id: ID, url: 'https://bank.test/login', origin: 'https://bank.test', tab: { id: 3 }, frameId: 0 };
    const otherExtension = {
      id: 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz',
      url: 'chrome-extension://zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz/x.html',
    };
    const lookAlikeUrl = { id: ID, url: `https://evil.test/${BASE}`, origin: 'https://evil.test' };
    const noUrl = { id: ID };
    for (const sender of [content, otherExtension, lookAlikeUrl, noUrl]) {
      expect(checkRequest({ type: 'status' }, sender, ID, BASE)).toEqual({
        ok: false,
        answer: { ok: false, error: REFUSED_SENDER },
      });
    }
  });

  it('refuses a message that is not exactly one of the requests', () => {
    for (const message of [
      null,
      'status',
      { type: 'eval', code: '1' },
      { type: 'copy', id: 'not-an-id', field: 'password' },
      { type: 'copy', id: ITEM, field: 'notes' },
      { type: 'fill', id: ITEM, tabId: -1 },
      { type: 'status', extra: true },
      { type: 'settings', idleMinutes: 0, matchRule: 'base-domain' },
    ]) {
      expect(checkRequest(message, popup, ID, BASE)).toEqual({ ok: false, answer: { ok: false, error: REFUSED_MESSAGE } });
    }
  });

  it('lets the inline menu ask only for names and a checked fill, from a framed menu page', () => {
    const menu = { id: ID, url: `${BASE}menu.html#x`, origin: `chrome-extension://${ID}`, tab: { id: 7 }, frameId: 4 };
    const TOKEN = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(checkRequest({ type: 'menu-items', token: TOKEN }, menu, ID, BASE)).toEqual({
      ok: true,
      kind: 'menu',
      request: { type: 'menu-items', token: TOKEN },
      from: { tabId: 7, frameId: 4 },
    });
    // The popup's requests (secrets, the whole vault) are not the menu's.
    expect(checkRequest({ type: 'copy', id: ITEM, field: 'password' }, menu, ID, BASE)).toEqual({
      ok: false,
      answer: { ok: false, error: REFUSED_MESSAGE },
    });
    expect(checkRequest({ type: 'items', query: '' }, menu, ID, BASE)).toMatchObject({ ok: false });
    // And the menu's requests are not the popup's; a menu page as a top frame is refused.
    expect(checkRequest({ type: 'menu-items', token: TOKEN }, popup, ID, BASE)).toMatchObject({ ok: false });
    expect(checkRequest({ type: 'menu-items', token: TOKEN }, { ...menu, frameId: 0 }, ID, BASE)).toMatchObject({ ok: false });
    // Another page of the extension asks for nothing.
    expect(checkRequest({ type: 'status' }, { ...popup, url: `${BASE}other.html` }, ID, BASE)).toMatchObject({ ok: false });
  });
});
