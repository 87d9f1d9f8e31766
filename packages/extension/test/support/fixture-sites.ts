import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fillPageFor, FILL_SCRIPTS } from './fill-fixture-pages';
import { LOGIN_FORM, page } from './fixture-html';

/**
 * The web sites the extension meets, served by the test itself on one http and one https port
 * for every host name (Chromium maps *.test to 127.0.0.1): the bank, its subdomain, a look-alike
 * (bank.test.evil.test) and an attacker (evil.test). Each page is chosen by its path; the host
 * name decides only which origin the browser gives it.
 */
export interface FixtureSites {
  /** https://<host>:<port><path> */
  https(host: string, path: string): string;
  /** http://<host>:<port><path> */
  http(host: string, path: string): string;
  close(): Promise<void>;
}

/** Every fixture page by path. `frame` pages embed the login of another host, given in ?src=. */
function pageFor(url: URL): string | null {
  switch (url.pathname) {
    case '/login':
      return page('Sign in', LOGIN_FORM());
    case '/hidden':
      return page('Hidden form', LOGIN_FORM('display:none'));
    case '/invisible':
      return page('Invisible form', LOGIN_FORM('visibility:hidden'));
    case '/transparent':
      return page('Transparent form', `<div style="opacity:0">${LOGIN_FORM()}</div>`);
    case '/off-screen':
      return page('Off-screen form', LOGIN_FORM('position:absolute;left:-9999px;top:-9999px'));
    case '/tiny':
      return page('Tiny fields', LOGIN_FORM('', 'width:1px;height:1px;padding:0;border:0'));
    case '/framed': {
      const src = url.searchParams.get('src') ?? '';
      return page(
        'Framed sign-in',
        `<p>No form here; one is in the frame.</p><iframe id="frame" src="${src.replace(/"/g, '')}" width="600" height="300"></iframe>`,
      );
    }
    case '/menu-login':
      // A login whose page attacks the inline menu once it appears (?attack=...), see MENU_ATTACK_SCRIPT.
      return page('Sign in', `${LOGIN_FORM()}<p style="height:400px">Decoy text.</p><script src="/menu-attack.js"></script>`);
    case '/done':
      return page('Signed in', '<p>Welcome back.</p>');
    case '/signup':
      return page(
        'Create an account',
        `<form id="login" action="/done" method="post">
          <label>User name <input id="username" name="username" autocomplete="username"></label>
          <label>New password <input id="new-password" name="password" type="password" autocomplete="new-password"></label>
          <label>Repeat it <input id="confirm-password" name="confirm" type="password" autocomplete="new-password"></label>
          <button type="submit">Sign up</button>
        </form>`,
      );
    case '/forged-save':
      // A page that tries to make the extension save or update: messages shaped like the
      // content script's and the popup's, synthetic submit events and clicks, then it navigates.
      return page(
        'Forged save',
        `${LOGIN_FORM()}<div role="button" id="fake">Sign in</div><script src="/forged-save.js"></script>`,
      );
    case '/forged':
      // A page that tries to drive the extension: window messages shaped like its requests,
      // synthetic events, and runtime messages if it could reach them.
      return page('Forged messages', `${LOGIN_FORM()}<script src="/forged.js"></script>`);
    default:
      return fillPageFor(url);
  }
}

const FORGED_SCRIPT = `
  const requests = [
    { type: 'fill', id: '00000000-0000-4000-8000-000000000000', tabId: 0 },
    { type: 'copy', id: '00000000-0000-4000-8000-000000000000', field: 'password' },
    { type: 'items', query: '' },
  ];
  let sent = 0;
  const blast = () => {
    for (const request of requests) {
      window.postMessage(request, '*');
      window.postMessage({ source: 'lockit', ...request }, '*');
      document.dispatchEvent(new CustomEvent('lockit-fill', { detail: request }));
      try { globalThis.chrome?.runtime?.sendMessage?.(request); } catch {}
    }
    document.getElementById('username').focus();
    document.getElementById('password').dispatchEvent(new MouseEvent('click', { bubbles: true }));
    sent++;
    document.body.dataset.sent = String(sent);
  };
  setInterval(blast, 100);
`;

const FORGED_SAVE_SCRIPT = `
  const form = document.getElementById('login');
  document.getElementById('username').value = 'mallory';
  document.getElementById('password').value = 'forged-pass';
  const shapes = [
    { type: 'login-submitted', username: 'mallory', password: 'forged-pass', trigger: 'submit' },
    { type: 'login-form-gone' },
    { type: 'answer-offer', tabId: 0, offerId: '00000000-0000-4000-8000-000000000000', answer: 'save' },
    { type: 'save-offer', tabId: 0 },
  ];
  for (const shape of shapes) {
    window.postMessage(shape, '*');
    window.postMessage({ source: 'lockit', ...shape }, '*');
    try { globalThis.chrome?.runtime?.sendMessage?.(shape); } catch {}
  }
  form.dispatchEvent(new SubmitEvent('submit', { bubbles: true, cancelable: true }));
  document.getElementById('fake').dispatchEvent(new MouseEvent('click', { bubbles: true }));
  document.getElementById('password').dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  document.getElementById('login').remove();
  document.body.dataset.forged = 'done';
  setTimeout(() => (location.href = '/done?after=forged'), 300);
`;

/**
 * What a hostile page does to the inline menu's host once it appears (the DEF CON 33 tricks):
 * fade it, its body or the root; cover it with a box that lets clicks through or one that takes
 * them, with a popover in the top layer, or with a cover toggled faster than the eye; or move it
 * under the pointer.
 */
const MENU_ATTACK_SCRIPT = `
  const attack = new URLSearchParams(location.search).get('attack') ?? 'none';
  const apply = (host) => {
    const rect = host.getBoundingClientRect();
    const cover = (passThrough) => {
      const box = document.createElement('div');
      box.textContent = 'Click here to win';
      box.style.cssText = 'position:fixed;z-index:2147483647;background:#fff;left:' + rect.left + 'px;top:' + rect.top + 'px;width:' + rect.width + 'px;height:' + rect.height + 'px;' + (passThrough ? 'pointer-events:none;' : '');
      document.documentElement.append(box);
    };
    if (attack === 'host-opacity') host.style.opacity = '0';
    if (attack === 'body-opacity') document.body.style.opacity = '0.01';
    if (attack === 'root-opacity') document.documentElement.style.opacity = '0.5';
    if (attack === 'cover-pass-through') cover(true);
    if (attack === 'cover') cover(false);
    if (attack === 'move') setTimeout(() => (host.style.top = (rect.top + 60) + 'px'), 700);
    if (attack === 'popover') {
      // The top layer is above every z-index: a popover raised over the menu, letting clicks through.
      const top = document.createElement('div');
      top.popover = 'manual';
      top.textContent = 'Click here to win';
      top.style.cssText = 'margin:0;inset:auto;position:fixed;background:#fff;border:0;pointer-events:none;left:' + rect.left + 'px;top:' + rect.top + 'px;width:' + rect.width + 'px;height:' + rect.height + 'px;';
      document.body.append(top);
      top.showPopover();
    }
    if (attack === 'toggle') {
      // A pass-through cover shown and hidden every 40 ms, so the menu is visible now and then.
      cover(true);
      const box = document.documentElement.lastElementChild;
      setInterval(() => (box.style.display = box.style.display === 'none' ? 'block' : 'none'), 40);
    }
    document.body.dataset.attacked = attack;
  };
  new MutationObserver(() => {
    const host = [...document.body.children].find((element) => element.tagName.startsWith('LOCKIT-'));
    if (host && !document.body.dataset.attacked) apply(host);
  }).observe(document.body, { childList: true });
`;

function handler(request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://fixture');
  const scripts: Record<string, string> = {
    '/forged.js': FORGED_SCRIPT,
    '/forged-save.js': FORGED_SAVE_SCRIPT,
    '/menu-attack.js': MENU_ATTACK_SCRIPT,
    ...FILL_SCRIPTS,
  };
  if (scripts[url.pathname]) {
    response.writeHead(200, { 'content-type': 'text/javascript' });
    response.end(scripts[url.pathname]);
    return;
  }
  const html = pageFor(url);
  response.writeHead(html === null ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(html ?? 'Not found');
}

/** A self-signed certificate for the fixture hosts (Chromium runs with --ignore-certificate-errors). */
function selfSigned(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'lockit-extension-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-subj',
        '/CN=bank.test',
        '-addext',
        'subjectAltName=DNS:*.test,DNS:bank.test,DNS:*.bank.test,DNS:*.evil.test',
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startFixtureSites(): Promise<FixtureSites> {
  const plain = createHttpServer(handler);
  const secure = createHttpsServer(selfSigned(), handler);
  await Promise.all([plain, secure].map((server) => new Promise<void>((done) => server.listen(0, '127.0.0.1', done))));
  const httpPort = (plain.address() as AddressInfo).port;
  const httpsPort = (secure.address() as AddressInfo).port;
  return {
    https: (host, path) => `https://${host}:${httpsPort}${path}`,
    http: (host, path) => `http://${host}:${httpPort}${path}`,
    close: () =>
      Promise.all(
        [plain, secure].map(
          (server) =>
            new Promise<void>((done) => {
              server.closeAllConnections();
              server.close(() => done());
            }),
        ),
      ).then(() => undefined),
  };
}
