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
});
