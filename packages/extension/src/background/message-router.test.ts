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

  describe('a content script', () => {
    const content = {
      id: ID,
      url: 'https://shop.test/login?next=1',
      origin: 'https://shop.test',
      tab: { id: 9 },
      frameId: 0,
      documentId: 'D1',
    };
    const submitted = { type: 'login-submitted', username: 'grace', password: 'pw', trigger: 'submit' };

    it('may report a sent login form, its site taken from the browser’s sender', () => {
      expect(checkRequest(submitted, content, ID, BASE)).toEqual({
        ok: true,
        kind: 'page',
        request: submitted,
        from: { tabId: 9, frameId: 0, origin: 'https://shop.test', url: 'https://shop.test/login?next=1' },
      });
      expect(checkRequest({ type: 'login-form-gone' }, { ...content, frameId: 3 }, ID, BASE)).toMatchObject({
        ok: true,
        from: { tabId: 9, frameId: 3, origin: 'https://shop.test' },
      });
    });

    it('may report the code its page loaded (the served-code watcher), nothing more', () => {
      const report = {
        type: 'served-code',
        files: [{ url: 'https://shop.test/a.js', sha256: `${'A'.repeat(43)}=` }],
        inline: [],
      };
      expect(checkRequest(report, content, ID, BASE)).toMatchObject({ ok: true, kind: 'page', request: report });
      for (const forged of [
        { ...report, verdict: 'ok' },
        { ...report, files: [{ url: 'https://shop.test/a.js', sha256: 'not a hash' }] },
        { type: 'served-code-verdict', tabId: 9 },
      ]) {
        expect(checkRequest(forged, content, ID, BASE)).toEqual({ ok: false, answer: { ok: false, error: REFUSED_SENDER } });
      }
    });

    it('cannot name another site, ask the popup’s or the menu’s requests, or send an empty password', () => {
      for (const message of [
        { ...submitted, origin: 'https://bank.test' },
        { ...submitted, password: '' },
        { type: 'answer-offer', tabId: 9, offerId: '0f8fad5b-d9cb-469f-a165-70867728950e', answer: 'save' },
        { type: 'save-offer', tabId: 9 },
        { type: 'items', query: '' },
        { type: 'menu-generate', token: '0f8fad5b-d9cb-469f-a165-70867728950e', x: 1, y: 1 },
      ]) {
        expect(checkRequest(message, content, ID, BASE)).toEqual({ ok: false, answer: { ok: false, error: REFUSED_SENDER } });
      }
    });

    it('is refused from a page with an opaque or mismatched origin, another extension, or no tab', () => {
      for (const sender of [
        { ...content, origin: 'null' },
        { ...content, url: 'data:text/html,x', origin: 'null' },
        { ...content, url: 'file:///tmp/login.html', origin: 'file://' },
        { ...content, id: 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz' },
        { ...content, tab: undefined },
      ]) {
        expect(checkRequest(submitted, sender, ID, BASE)).toMatchObject({ ok: false });
      }
    });
  });

  it('lets the popup ask for the tab’s save offer and answer it, and nothing else with it', () => {
    const OFFER = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(checkRequest({ type: 'answer-offer', tabId: 2, offerId: OFFER, answer: 'dismiss' }, popup, ID, BASE)).toMatchObject({
      ok: true,
      kind: 'popup',
    });
    for (const message of [
      { type: 'answer-offer', tabId: 2, offerId: OFFER, answer: 'save', password: 'x' },
      { type: 'answer-offer', tabId: 2, offerId: 'nope', answer: 'save' },
      { type: 'answer-offer', tabId: 2, offerId: OFFER, answer: 'update-everything' },
    ]) {
      expect(checkRequest(message, popup, ID, BASE)).toMatchObject({ ok: false });
    }
  });
});
